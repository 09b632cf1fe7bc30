//! `--max-entry-size`, `--max-expansion` and `--max-pixels`, declared once for the subcommands that decode.

/// Bounds on what relic decodes from a file, so that a hostile file cannot exhaust memory; only on the
/// subcommands that decode.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Largest entry or stream relic decodes, in bytes (K, M, G suffixes: powers of 1024)
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    max_entry_size: u64,
    /// Refuse archives whose entries would expand to more than this many times their own size
    #[arg(long, value_name = "RATIO", default_value_t = relic::limits::Limits::DEFAULT.max_expansion)]
    max_expansion: u64,
    /// Largest image (width × height) decoded from an input such as a PNG to pack
    #[arg(long, value_name = "PIXELS", default_value_t = relic::limits::Limits::DEFAULT.max_pixels)]
    max_pixels: u64,
}

impl LimitArgs {
    pub fn apply(&self) {
        relic::limits::set(relic::limits::Limits {
            max_entry_size: self.max_entry_size,
            max_expansion: self.max_expansion,
            max_pixels: self.max_pixels,
        });
    }
}

/// A size with an optional K, M or G suffix (powers of 1024): `--max-entry-size 2G`.
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 10),
        Some((i, 'M' | 'm')) => (&t[..i], 20),
        Some((i, 'G' | 'g')) => (&t[..i], 30),
        _ => (t, 0),
    };
    let n: u64 = digits.trim().parse().map_err(|_| format!("`{text}` is not a size (e.g. 1048576, 512M, 2G)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

//! The PNG compression choice, apart from the encoder: [`crate::registry::ConvertOptions`] carries it in
//! every build, with or without the `export` feature.

/// How hard PNG output is compressed (`relic convert --compression`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PngCompression {
    /// fdeflate: several times faster than zlib's default, files somewhat larger.
    #[default]
    Fast,
    /// zlib level 6 with filters chosen per row.
    Default,
    /// zlib level 9 with filters chosen per row.
    Best,
}

impl PngCompression {
    pub const NAMES: [&'static str; 3] = ["fast", "default", "best"];

    pub fn from_name(name: &str) -> Option<PngCompression> {
        match name.to_ascii_lowercase().as_str() {
            "fast" => Some(PngCompression::Fast),
            "default" => Some(PngCompression::Default),
            "best" => Some(PngCompression::Best),
            _ => None,
        }
    }
}

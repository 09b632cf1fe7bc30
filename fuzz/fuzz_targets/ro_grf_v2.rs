//! `ro-grf`, version 0x200, from its parts: every entry of an archive that parses inflates (bounded) or
//! fails cleanly, case-insensitive lookups find every name, and the archive writes back byte for byte from
//! its document and through its JSON (value and text). Whole files of every version are read as they are
//! (the `format` target reads them too); `ro_grf_v1` and `ro_grf_v3` have the parts forms of 1.x and 0x300.
//!
//! The file table is zlib-compressed, so mutated files almost never reach its records. An input that does
//! not start with the GRF signature is therefore read as the parts of a GRF, which the target assembles with
//! a freshly compressed table: `u16` entry count, `u16` table length, the inflated table, then the entry
//! data region (offsets in the table count from its start). `relic-fuzz-seed` seeds this form from every GRF.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use relic::ragnarok::grf::types;

/// A GRF 0x200 from its parts (see the module comment); `None` when the input is too short.
fn assemble(data: &[u8]) -> Option<Vec<u8>> {
    let (head, rest) = data.split_first_chunk::<4>()?;
    let count = u32::from(u16::from_le_bytes([head[0], head[1]]));
    let table_len = usize::from(u16::from_le_bytes([head[2], head[3]])).min(rest.len());
    let (table, body) = rest.split_at(table_len);
    let packed = relic::codec::zlib::compress(table, 1);
    let mut out = Vec::with_capacity(types::HEADER_SIZE + body.len() + 8 + packed.len());
    out.extend_from_slice(types::SIGNATURE);
    out.extend_from_slice(&types::DEFAULT_KEY);
    out.extend_from_slice(&u32::try_from(body.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(count + types::COUNT_BIAS).to_le_bytes());
    out.extend_from_slice(&types::VERSION_0X200.to_le_bytes());
    out.extend_from_slice(body);
    out.extend_from_slice(&u32::try_from(packed.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&u32::try_from(table.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&packed);
    Some(out)
}

fuzz_target!(|data: &[u8]| relic_fuzz::check_grf(data, assemble));

// Structure moves on the ro_grf_v2 input (see `relic_fuzz::mutate::grf`), else libFuzzer's byte mutation.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run(data, size, max_size, seed, relic_fuzz::mutate::grf)
});

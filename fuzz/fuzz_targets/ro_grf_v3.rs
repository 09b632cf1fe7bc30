//! `ro-grf`, version 0x300: 64-bit table and entry offsets, a u32 before the compressed table's sizes, and
//! GRF Editor's older header form. Reading never panics, every entry deciphers (flags 0x02/0x04) and
//! inflates (bounded) or fails cleanly, lookups find every name, and the archive writes back byte for byte
//! from its document and JSON.
//!
//! The table is zlib-compressed, so an input that does not start with the GRF signature is the parts of a
//! 0x300 archive, which the target assembles with a freshly compressed table: `u16` entry count, `u16`
//! table length, `u32` (the u32 before the table's sizes), `u8` header form (odd: GRF Editor's older
//! form, seed 256 + byte), the inflated table (21-byte fields: u64 offsets), then the entry data region
//! (offsets count from its start). `relic-fuzz-seed` seeds this form from every 0x300 GRF.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::grf::types;

/// A GRF 0x300 from its parts (see the module comment); `None` when the input is too short.
fn assemble(data: &[u8]) -> Option<Vec<u8>> {
    let (head, rest) = data.split_first_chunk::<9>()?;
    let count = u32::from(u16::from_le_bytes([head[0], head[1]]));
    let table_len = usize::from(u16::from_le_bytes([head[2], head[3]])).min(rest.len());
    let reserved = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    let (table, body) = rest.split_at(table_len);
    let packed = relic::codec::zlib::compress(table, 1);
    let mut out = Vec::with_capacity(types::HEADER_SIZE + body.len() + 12 + packed.len());
    out.extend_from_slice(types::SIGNATURE);
    out.extend_from_slice(&types::DEFAULT_KEY);
    let table_offset = body.len() as u64;
    if head[8] % 2 == 1 {
        let seed = 256 + u32::from(head[8]);
        out.extend_from_slice(&u32::try_from(table_offset).ok()?.to_le_bytes());
        out.extend_from_slice(&seed.to_le_bytes());
        out.extend_from_slice(&(count + seed + types::COUNT_BIAS).to_le_bytes());
    } else {
        out.extend_from_slice(&table_offset.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
    }
    out.extend_from_slice(&types::VERSION_0X300.to_le_bytes());
    out.extend_from_slice(body);
    out.extend_from_slice(&reserved.to_le_bytes());
    out.extend_from_slice(&u32::try_from(packed.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&u32::try_from(table.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&packed);
    Some(out)
}

fuzz_target!(|data: &[u8]| relic_fuzz::check_grf(data, assemble));

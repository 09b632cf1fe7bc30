//! `ro-grf`, version 1.x (0x101–0x103): DES-enciphered names and entries, a plain table that runs to the end
//! of the file. Reading never panics, every entry deciphers and inflates (bounded) or fails cleanly, lookups
//! find every name, the archive writes back byte for byte from its document and JSON, and enciphering undoes
//! deciphering on every entry's stored bytes and every name field.
//!
//! The 1.x table is not compressed, so mutations reach its records directly. An input that does not start
//! with the GRF signature is the parts of a 1.x archive, which the target gives a header: `u8` version
//! (0x101 + byte % 3), `u16` entry count, `u32` table offset (counted from the end of these 7 bytes, as a
//! GRF's from byte 46), then the data and the table. `relic-fuzz-seed` seeds this form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic::ragnarok::grf::types;

/// A 1.x GRF from its parts (see the module comment); `None` when the input is too short.
fn assemble(data: &[u8]) -> Option<Vec<u8>> {
    let (head, body) = data.split_first_chunk::<7>()?;
    let version = 0x101 + u32::from(head[0] % 3);
    let count = u32::from(u16::from_le_bytes([head[1], head[2]]));
    let table_offset = u32::from_le_bytes([head[3], head[4], head[5], head[6]]);
    let mut out = Vec::with_capacity(types::HEADER_SIZE + body.len());
    out.extend_from_slice(types::SIGNATURE);
    out.extend_from_slice(&types::DEFAULT_KEY);
    out.extend_from_slice(&table_offset.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(count + types::COUNT_BIAS).to_le_bytes());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(body);
    Some(out)
}

fuzz_target!(|data: &[u8]| relic_fuzz::check_grf(data, assemble));

//! Ragnarok Online GRF archives of every version: 1.x (0x102, 0x103), enciphered 0x200 entries, 0x300 (and
//! GRF Editor's older 0x300 header), and an archive past 4 GiB.
//!
//! The fixtures are assembled byte by byte here from the layouts in `relic::ragnarok::grf`'s notes, and
//! enciphered by the independent implementation of Gravity's DES variant below, written from FIPS 46-3
//! and the scheme's description (bit by bit, FP derived by inverting IP), not by relic's writer or cipher:
//! - 1.x: header as 0x200 (u32 table offset, seed, seed + count + 7, version); data, each entry a zlib
//!   stream zero-padded to 8 bytes and enciphered (mixed; header-only for `.gnd .gat .act .str`); at the
//!   table offset, to the end of the file, per entry: u32 field length, the field (2 zero bytes, the name
//!   and its NUL padded with NULs to 8 bytes, enciphered block by block: DES then nibble swap; 4 zero
//!   bytes), u32 compressed + real + 715, u32 aligned + 37579, u32 real, u8 flags, u32 offset;
//! - 0x200: flags 0x02 (mixed) and 0x04 (header-only) on entries enciphered the same way;
//! - 0x300: u64 table offset at 30, u32 entry count at 38; at the table: u32 (0), u32 compressed, u32
//!   inflated, zlib of the entries with u64 offsets.

use std::io::{Seek, SeekFrom, Write};

use relic::ragnarok::grf::types::{Cipher, Layout, StoredCipher};
use relic::ragnarok::grf::{self, convert, parse, write::encode_name, write_document, GrfDocument, GrfRecord};
use relic::ragnarok::grf::{PackInput, PackSource};
use relic::{ops, Error};

// =========================================================================================================
// Gravity's DES variant, enciphering direction, from the standard

mod ro_des {
    /// FIPS 46-3 initial permutation (bit 1 = most significant bit of byte 0).
    const IP: [usize; 64] = [
        58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4, 62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40,
        32, 24, 16, 8, 57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3, 61, 53, 45, 37, 29, 21, 13, 5, 63,
        55, 47, 39, 31, 23, 15, 7,
    ];
    const E: [usize; 48] = [
        32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17, 16, 17, 18, 19, 20, 21, 20,
        21, 22, 23, 24, 25, 24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
    ];
    const P: [usize; 32] = [
        16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10, 2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11,
        4, 25,
    ];
    /// S1–S8 by row and column.
    const S: [[[u8; 16]; 4]; 8] = [
        [
            [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7],
            [0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8],
            [4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0],
            [15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
        ],
        [
            [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10],
            [3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5],
            [0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15],
            [13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
        ],
        [
            [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8],
            [13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1],
            [13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7],
            [1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
        ],
        [
            [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15],
            [13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9],
            [10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4],
            [3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
        ],
        [
            [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9],
            [14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6],
            [4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14],
            [11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
        ],
        [
            [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11],
            [10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8],
            [9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6],
            [4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
        ],
        [
            [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1],
            [13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6],
            [1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2],
            [6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
        ],
        [
            [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7],
            [1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2],
            [7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8],
            [2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
        ],
    ];
    /// A deshuffled block takes its bytes from these positions of the stored one.
    const ORDER: [usize; 7] = [3, 4, 6, 0, 1, 2, 5];
    /// Pairs of values byte 7 of a shuffled block swaps.
    const SWAPS: [(u8, u8); 7] =
        [(0x00, 0x2B), (0x01, 0x68), (0x48, 0x77), (0x60, 0xFF), (0x6C, 0x80), (0xB9, 0xC0), (0xEB, 0xFE)];

    /// IP, one Feistel round with a zero key (E, S1–S8, P, L ^= f(R)), IP⁻¹, on a block, bit by bit.
    pub fn block(b: &mut [u8]) {
        let bits: Vec<u8> = (0..64).map(|i| (b[i / 8] >> (7 - i % 8)) & 1).collect();
        let x: Vec<u8> = IP.iter().map(|&p| bits[p - 1]).collect();
        let (l, r) = x.split_at(32);
        let e: Vec<u8> = E.iter().map(|&p| r[p - 1]).collect();
        let mut s = Vec::with_capacity(32);
        for (k, g) in e.chunks(6).enumerate() {
            let row = usize::from(g[0] * 2 + g[5]);
            let col = usize::from(g[1] * 8 + g[2] * 4 + g[3] * 2 + g[4]);
            let v = S[k][row][col];
            s.extend((0..4).map(|j| (v >> (3 - j)) & 1));
        }
        let f: Vec<u8> = P.iter().map(|&p| s[p - 1]).collect();
        let y: Vec<u8> = l.iter().zip(&f).map(|(a, b)| a ^ b).chain(r.iter().copied()).collect();
        // IP⁻¹: the bit IP moved to position i goes back to position IP[i].
        let mut out = [0u8; 64];
        for (i, &p) in IP.iter().enumerate() {
            out[p - 1] = y[i];
        }
        for (i, byte) in b.iter_mut().enumerate().take(8) {
            *byte = out[i * 8..i * 8 + 8].iter().fold(0, |acc, &bit| (acc << 1) | bit);
        }
    }

    fn swap(v: u8) -> u8 {
        SWAPS
            .iter()
            .find_map(|&(a, b)| {
                if v == a {
                    Some(b)
                } else if v == b {
                    Some(a)
                } else {
                    None
                }
            })
            .unwrap_or(v)
    }

    fn shuffle(b: &mut [u8]) {
        let plain = b.to_vec();
        for (k, &from) in ORDER.iter().enumerate() {
            b[from] = plain[k];
        }
        b[7] = swap(plain[7]);
    }

    /// The cycle of a mixed entry from the decimal digits of its compressed size.
    pub fn cycle(compressed: usize) -> usize {
        let digits = compressed.to_string().len();
        if digits < 3 {
            1
        } else if digits < 5 {
            digits + 1
        } else if digits < 7 {
            digits + 9
        } else {
            digits + 15
        }
    }

    /// Enciphers an entry's padded bytes: 20 DES blocks, then (mixed) every cycle-th block DES and every
    /// 7th of the others shuffled.
    pub fn encipher_entry(data: &mut [u8], mixed: bool, compressed: usize) {
        let cycle = cycle(compressed);
        let mut others = 0;
        for (i, b) in data.chunks_exact_mut(8).enumerate() {
            if i < 20 {
                block(b);
            } else if !mixed {
                break;
            } else if i % cycle == 0 {
                block(b);
            } else {
                if others > 0 && others % 7 == 0 {
                    shuffle(b);
                }
                others += 1;
            }
        }
    }

    /// A 1.x name: NUL-terminated, padded with NULs to whole blocks, each block DES then nibble-swapped.
    pub fn encipher_name(name: &[u8]) -> Vec<u8> {
        let mut b = name.to_vec();
        b.push(0);
        while b.len() % 8 != 0 {
            b.push(0);
        }
        for chunk in b.chunks_exact_mut(8) {
            block(chunk);
            for x in chunk.iter_mut() {
                *x = x.rotate_left(4);
            }
        }
        b
    }
}

#[test]
fn the_test_cipher_matches_a_known_answer() {
    // The block function of rathena's construction gives 0x5176057698EAD9EB for 0x0123456789ABCDEF (see the
    // same vector in relic's own unit tests).
    let mut b = 0x0123_4567_89AB_CDEFu64.to_be_bytes();
    ro_des::block(&mut b);
    assert_eq!(u64::from_be_bytes(b), 0x5176_0576_98EA_D9EB);
    ro_des::block(&mut b);
    assert_eq!(u64::from_be_bytes(b), 0x0123_4567_89AB_CDEF);
    assert_eq!(
        (ro_des::cycle(99), ro_des::cycle(100), ro_des::cycle(12_345), ro_des::cycle(1_234_567)),
        (1, 4, 14, 22)
    );
}

// =========================================================================================================
// Fixtures

const KEY: [u8; 15] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

use crate::common::zlib6;

/// xorshift bytes: incompressible, so the stored streams are long enough to reach the cycle and shuffles.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

/// CP949 `data\텍스트\안녕.txt`.
const KOREAN_NAME: &[u8] = &[
    b'd', b'a', b't', b'a', b'\\', 0xC5, 0xD8, 0xBD, 0xBA, 0xC6, 0xAE, b'\\', 0xBE, 0xC8, 0xB3, 0xE7, b'.', b't', b'x',
    b't',
];
/// CP949 `안녕하세요`.
const ANNYEONG: &[u8] = &[0xBE, 0xC8, 0xB3, 0xE7, 0xC7, 0xCF, 0xBC, 0xBC, 0xBF, 0xE4];

/// A 2×2 24-bit BMP (red, white / blue, green).
fn tiny_bmp() -> Vec<u8> {
    let mut b = b"BM".to_vec();
    b.extend_from_slice(&70u32.to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b.extend_from_slice(&[255, 0, 0, 0, 255, 0, 0, 0]);
    b.extend_from_slice(&[0, 0, 255, 255, 255, 255, 0, 0]);
    b
}

/// One entry of a hand-made archive: a file (its content, zlib level 6) or a folder record.
#[derive(Clone)]
struct Fx {
    name: Vec<u8>,
    content: Vec<u8>,
    flags: u8,
}

fn file(name: &[u8], content: &[u8]) -> Fx {
    Fx { name: name.to_vec(), content: content.to_vec(), flags: 1 }
}

/// The entries every version's fixture holds: a mixed text, header-only `.gnd` and `.GAT` (upper case), a
/// Korean name, an entry of 3-digit compressed size (cycle 4, shuffles), one of 5 digits (cycle 14), an
/// empty file, a folder record, a name whose NUL fills its last block exactly, and a texture.
fn entries() -> Vec<Fx> {
    vec![
        file(b"data\\readme.txt", b"Hello from a hand-made GRF of another version.\r\n"),
        file(b"data\\map\\prontera.gnd", &noise(700, 1)),
        file(b"data\\map\\PRONTERA.GAT", &noise(300, 2)),
        file(KOREAN_NAME, ANNYEONG),
        file(b"data\\sprite\\mid.bin", &noise(900, 3)),
        file(b"data\\sprite\\big.act", &noise(12_000, 4)),
        file(b"data\\model\\big.bin", &noise(12_000, 5)),
        file(b"data\\empty.txt", b""),
        Fx { name: b"data\\sub".to_vec(), content: Vec::new(), flags: 0 },
        file(b"data\\sevenb", b"7 bytes + NUL"),
        file(b"data\\texture\\wall.bmp", &tiny_bmp()),
    ]
}

fn header_only_name(name: &[u8]) -> bool {
    let lower = String::from_utf8_lossy(name).to_ascii_lowercase();
    [".gnd", ".gat", ".act", ".str"].iter().any(|e| lower.ends_with(e))
}

/// A stored entry: its zlib stream padded to 8 and (when `cipher` says so) enciphered by the test cipher.
/// Returns (stored bytes, compressed size, aligned size).
fn stored(content: &[u8], cipher: Option<bool>) -> (Vec<u8>, u32, u32) {
    let packed = zlib6(content);
    let compressed = packed.len();
    let mut b = packed;
    while b.len() % 8 != 0 {
        b.push(0);
    }
    if let Some(mixed) = cipher {
        ro_des::encipher_entry(&mut b, mixed, compressed);
    }
    let aligned = b.len() as u32;
    (b, compressed as u32, aligned)
}

/// A 1.x archive (0x102 or 0x103): data in table order, then the plain table to the end of the file.
fn v1_archive(version: u32, entries: &[Fx], seed: u32) -> Vec<u8> {
    let mut out = vec![0u8; 46];
    let mut rows = Vec::new();
    for e in entries {
        if e.flags & 1 == 0 {
            rows.push((0u32, 0u32, 0u32, 0u32));
            continue;
        }
        let (b, c, a) = stored(&e.content, Some(!header_only_name(&e.name)));
        rows.push(((out.len() - 46) as u32, c, a, e.content.len() as u32));
        out.extend_from_slice(&b);
    }
    let table_offset = (out.len() - 46) as u32;
    for (e, &(offset, c, a, real)) in entries.iter().zip(&rows) {
        let mut field = vec![0u8, 0];
        field.extend_from_slice(&ro_des::encipher_name(&e.name));
        field.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(field.len() as u32).to_le_bytes());
        out.extend_from_slice(&field);
        out.extend_from_slice(&(c + real + 715).to_le_bytes());
        out.extend_from_slice(&(a + 37_579).to_le_bytes());
        out.extend_from_slice(&real.to_le_bytes());
        out.push(e.flags);
        out.extend_from_slice(&offset.to_le_bytes());
    }
    out[..15].copy_from_slice(b"Master of Magic");
    out[15..30].copy_from_slice(&KEY);
    out[30..34].copy_from_slice(&table_offset.to_le_bytes());
    out[34..38].copy_from_slice(&seed.to_le_bytes());
    out[38..42].copy_from_slice(&(entries.len() as u32 + seed + 7).to_le_bytes());
    out[42..46].copy_from_slice(&version.to_le_bytes());
    out
}

/// How a 0x200/0x300 fixture's header is laid out.
#[derive(Clone, Copy, PartialEq)]
enum Header {
    /// 0x200: u32 offset, seed 3, count + 10.
    V2,
    /// 0x300: u64 offset, count.
    Wide,
    /// 0x300 in GRF Editor's older form: u32 offset, seed 300, count + 307.
    Older,
}

/// A 0x200 or 0x300 archive whose entries are enciphered as their flags say (0x02 mixed, 0x04 header).
fn zlib_archive(header: Header, entries: &[Fx], reserved: u32) -> Vec<u8> {
    let v3 = header != Header::V2;
    let mut out = vec![0u8; 46];
    let mut table = Vec::new();
    for e in entries {
        let mut rec = (0u64, 0u32, 0u32, 0u32);
        if e.flags & 1 != 0 {
            let cipher = if e.flags & 2 != 0 {
                Some(true)
            } else if e.flags & 4 != 0 {
                Some(false)
            } else {
                None
            };
            let (b, c, a) = stored(&e.content, cipher);
            rec = ((out.len() - 46) as u64, c, a, e.content.len() as u32);
            out.extend_from_slice(&b);
        }
        table.extend_from_slice(&e.name);
        table.push(0);
        table.extend_from_slice(&rec.1.to_le_bytes());
        table.extend_from_slice(&rec.2.to_le_bytes());
        table.extend_from_slice(&rec.3.to_le_bytes());
        table.push(e.flags);
        if v3 {
            table.extend_from_slice(&rec.0.to_le_bytes());
        } else {
            table.extend_from_slice(&(rec.0 as u32).to_le_bytes());
        }
    }
    let table_offset = (out.len() - 46) as u64;
    let packed = zlib6(&table);
    if v3 {
        out.extend_from_slice(&reserved.to_le_bytes());
    }
    out.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    out.extend_from_slice(&(table.len() as u32).to_le_bytes());
    out.extend_from_slice(&packed);
    out[..15].copy_from_slice(b"Master of Magic");
    out[15..30].copy_from_slice(&KEY);
    let n = entries.len() as u32;
    match header {
        Header::V2 | Header::Older => {
            let seed: u32 = if header == Header::V2 { 3 } else { 300 };
            out[30..34].copy_from_slice(&(table_offset as u32).to_le_bytes());
            out[34..38].copy_from_slice(&seed.to_le_bytes());
            out[38..42].copy_from_slice(&(n + seed + 7).to_le_bytes());
        }
        Header::Wide => {
            out[30..38].copy_from_slice(&table_offset.to_le_bytes());
            out[38..42].copy_from_slice(&n.to_le_bytes());
        }
    }
    let version: u32 = if v3 { 0x300 } else { 0x200 };
    out[42..46].copy_from_slice(&version.to_le_bytes());
    out
}

/// The entries with the given flags on the files (folder records keep 0).
fn flagged(flags: &[u8]) -> Vec<Fx> {
    entries()
        .into_iter()
        .zip(flags.iter().cycle())
        .map(|(e, &f)| Fx { flags: if e.flags == 0 { 0 } else { f }, ..e })
        .collect()
}

/// 0x200/0x300 entries: plain, mixed and header-only files in turn.
fn mixed_flags() -> Vec<Fx> {
    flagged(&[0x01, 0x03, 0x05])
}

/// Every version's fixture, named.
fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("0x102", v1_archive(0x102, &entries(), 0)),
        ("0x103", v1_archive(0x103, &entries(), 5)),
        ("0x200", zlib_archive(Header::V2, &mixed_flags(), 0)),
        ("0x300", zlib_archive(Header::Wide, &mixed_flags(), 0)),
        ("0x300 reserved", zlib_archive(Header::Wide, &mixed_flags(), 0xDEAD_BEEF)),
        ("0x300 older header", zlib_archive(Header::Older, &mixed_flags(), 0)),
    ]
}

use crate::common::write_file as write;

/// The path an entry extracts to.
fn path_of(name: &[u8]) -> String {
    relic::codec::text::decode(relic::codec::text::CP949, name).replace('\\', "/")
}

// =========================================================================================================
// Reading

#[test]
fn v1_names_sizes_and_ciphers() {
    for version in [0x102u32, 0x103] {
        let bytes = v1_archive(version, &entries(), 5);
        let grf = parse(&bytes).unwrap();
        assert_eq!(grf.layout, Layout::V1);
        assert_eq!((grf.header.version, grf.header.seed, grf.header.raw_count), (version, 5, 11 + 5 + 7));
        let want = entries();
        assert_eq!(grf.len(), want.len());
        for (i, (e, w)) in grf.entries.iter().zip(&want).enumerate() {
            assert_eq!(e.name_raw, w.name, "entry {i}");
            assert!(e.name_field.is_none(), "{}: the tools' name field", e.name);
            assert_eq!(e.record.flags, w.flags);
            assert_eq!(e.record.real_size as usize, w.content.len());
            if w.flags == 0 {
                assert_eq!((e.record.compressed_size, e.record.aligned_size), (0, 0));
                assert_eq!(grf.cipher(i), None);
                continue;
            }
            let c = zlib6(&w.content).len() as u32;
            assert_eq!((e.record.compressed_size, e.record.aligned_size), (c, c.div_ceil(8) * 8), "{}", e.name);
            let expected = if header_only_name(&w.name) {
                Cipher::Header
            } else {
                Cipher::Mixed { cycle: ro_des::cycle(c as usize) as u32 }
            };
            assert_eq!(grf.cipher(i), Some(expected), "{}", e.name);
        }
        assert_eq!(grf.entries[3].name, "data\\텍스트\\안녕.txt");
        assert!(matches!(grf.cipher(4), Some(Cipher::Mixed { cycle: 4 })), "900 noise bytes: 3 digits");
        assert!(matches!(grf.cipher(6), Some(Cipher::Mixed { cycle: 14 })), "12000 noise bytes: 5 digits");
        assert_eq!(grf.cipher(5), Some(Cipher::Header), ".act");
        assert_eq!(grf.cipher(2), Some(Cipher::Header), ".GAT");
        // Every file entry reads back exactly.
        for (i, w) in want.iter().enumerate().filter(|(_, w)| w.flags != 0) {
            assert_eq!(grf.read_entry(i).unwrap().as_ref(), &w.content[..], "{}", grf.entries[i].name);
            let head = grf.entry_data(i).head(16).unwrap();
            assert_eq!(head.as_ref(), &w.content[..w.content.len().min(16)]);
        }
        assert!(grf.table_trailing.is_empty());
        let info = grf::FORMAT.info(&bytes).unwrap();
        assert_eq!(info["version"], format!("0x{version:X}"));
        assert_eq!((info["files"].as_u64(), info["encrypted_entries"].as_u64()), (Some(10), Some(10)));
        assert!(info["layout"].as_str().unwrap().starts_with("1.x"));
    }
}

#[test]
fn enciphered_0x200_and_0x300_entries_read() {
    for (label, bytes) in fixtures().into_iter().skip(2) {
        let grf = parse(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        let want = mixed_flags();
        for (i, w) in want.iter().enumerate() {
            let e = &grf.entries[i];
            assert_eq!((e.name_raw.as_slice(), e.record.flags), (&w.name[..], w.flags), "{label}");
            let expected = match w.flags {
                0x03 => Some(StoredCipher::Mixed),
                0x05 => Some(StoredCipher::Header),
                _ => None,
            };
            assert_eq!(grf.cipher(i).map(StoredCipher::of), expected, "{label}: {}", e.name);
            if w.flags != 0 {
                assert_eq!(grf.read_entry(i).unwrap().as_ref(), &w.content[..], "{label}: {}", e.name);
            }
        }
        let info = grf::FORMAT.info(&bytes).unwrap();
        // Files 1, 2, 4, 5, 7 and 10 are flagged 0x03 or 0x05 (8 is the folder record).
        assert_eq!(info["encrypted_entries"], 6, "{label}");
    }
}

#[test]
fn headers_of_0x300() {
    let wide = zlib_archive(Header::Wide, &mixed_flags(), 0xDEAD_BEEF);
    let grf = parse(&wide).unwrap();
    assert_eq!(grf.layout, Layout::V3);
    assert!(grf.header.is_wide());
    assert_eq!((grf.header.seed, grf.header.raw_count, grf.header.entry_count()), (0, 11, Some(11)));
    assert_eq!(grf.header.table_offset, u64::from_le_bytes(wide[30..38].try_into().unwrap()));
    assert_eq!(grf.table_reserved, 0xDEAD_BEEF);
    // Offsets are u64 in the table: the 0x300 table is 4 bytes longer per entry than 0x200's.
    let v2_bytes = zlib_archive(Header::V2, &mixed_flags(), 0);
    let v2 = parse(&v2_bytes).unwrap();
    assert_eq!(grf.table_real_size, v2.table_real_size + 4 * 11);
    let info = grf::FORMAT.info(&wide).unwrap();
    assert_eq!(
        (info["version"].as_str(), info["table_offset"].as_u64()),
        (Some("0x300"), Some(46 + grf.header.table_offset))
    );
    assert!(info["layout"].as_str().unwrap().contains("64-bit"));

    // GRF Editor's older 0x300 header: bytes 35–37 set, read as u32 offset, seed, count + seed + 7.
    let older = zlib_archive(Header::Older, &mixed_flags(), 0);
    assert_ne!(&older[35..38], &[0, 0, 0]);
    let grf = parse(&older).unwrap();
    assert!(!grf.header.is_wide());
    assert_eq!((grf.header.seed, grf.header.raw_count, grf.header.entry_count()), (300, 318, Some(11)));
    assert_eq!(grf.read_entry(1).unwrap().as_ref(), &mixed_flags()[1].content[..]);
}

#[test]
fn extraction_gives_exact_names_and_bytes_for_every_version() {
    let dir = tempfile::tempdir().unwrap();
    for (label, bytes) in fixtures() {
        let archive = write(dir.path(), &format!("{}.grf", label.replace(' ', "_")), &bytes);
        let out = dir.path().join(format!("out {label}"));
        let report = ops::extract(&archive, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
        assert!(report.failures.is_empty(), "{label}: {:?}", report.failures);
        let files: Vec<Fx> = entries().into_iter().filter(|e| e.flags != 0).collect();
        assert_eq!(report.written.len(), files.len(), "{label}");
        for f in &files {
            let p = path_of(&f.name);
            assert_eq!(std::fs::read(out.join(&p)).unwrap(), f.content, "{label}: {p}");
        }
        assert!(out.join("data/텍스트/안녕.txt").is_file());
        let listed = ops::list(&archive, false).unwrap();
        assert_eq!(listed.len(), files.len());
        let (format, info) = ops::info(&archive).unwrap();
        assert_eq!(format.id, "ro-grf");
        assert_eq!(info["version"], if label.starts_with("0x300") { "0x300" } else { &label[..5] }, "{label}");
    }
}

#[test]
fn entries_convert_and_lend_textures_from_every_version() {
    let dir = tempfile::tempdir().unwrap();
    for (label, bytes) in fixtures() {
        let archive = write(dir.path(), &format!("{}.grf", label.replace(' ', "_")), &bytes);
        // `--textures`: the texture entry is found and decoded.
        let lookup = relic::ragnarok::rsm::textures::open(&archive).unwrap();
        let image = lookup.image("wall.bmp").unwrap_or_else(|| panic!("{label}: no texture"));
        assert_eq!((image.frames[0].width, image.frames[0].height), (2, 2), "{label}");
        // `convert`: every entry goes through, deciphered (these have no format of their own: kept raw).
        let out = dir.path().join(format!("conv {label}"));
        let report = ops::convert(std::slice::from_ref(&archive), &out, &ops::ConvertRequest::default(), &ops::Quiet);
        assert!(report.failures.is_empty(), "{label}: {:?}", report.failures);
        assert_eq!(report.outputs.len(), 10, "{label}");
        let stem = archive.file_name().unwrap();
        // BMP entries are textures (`ro-texture`, issue 24): converted to PNG rather than kept raw.
        assert!(out.join(stem).join("data/texture/wall.bmp.png").is_file(), "{label}");
        assert_eq!(std::fs::read(out.join(stem).join("data/sprite/mid.bin")).unwrap(), noise(900, 3), "{label}");
    }
}

// =========================================================================================================
// Writing back

fn json_round_trip(bytes: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let value = grf::FORMAT.to_json(bytes).unwrap();
    let text = serde_json::to_string_pretty(&value).unwrap();
    let back = grf::FORMAT.from_json(serde_json::from_str(&text).unwrap(), &Default::default()).unwrap();
    (value, back)
}

#[test]
fn documents_of_every_version_rebuild_byte_identically() {
    for (label, bytes) in fixtures() {
        let (value, back) = json_round_trip(&bytes);
        assert!(back == bytes, "{label}: JSON round trip differs");
        // Enciphered bytes are kept as stored, with their cipher named; readable names, no raw fields.
        let doc: GrfDocument = serde_json::from_value(value.clone()).unwrap();
        let grf = parse(&bytes).unwrap();
        for (i, e) in doc.entries.iter().enumerate() {
            assert_eq!(e.cipher, grf.cipher(i).map(StoredCipher::of), "{label}: {}", e.name);
            if let Some(d) = &e.data {
                assert_eq!(&d.0[..], grf.stored(i), "{label}: {}", e.name);
            }
            assert!(e.name_field.is_none());
        }
        assert_eq!(value["entries"][3]["name"], "data\\텍스트\\안녕.txt", "{label}");
        assert!(value.get("gaps").is_none(), "{label}");
        if label.starts_with("0x10") {
            assert!(value["table"].get("packed").is_none(), "1.x tables are rebuilt from the entries");
        }
    }
    // Through the operations, as `relic convert --to json` and `relic pack` do, and `relic check`.
    let dir = tempfile::tempdir().unwrap();
    let mut archives = Vec::new();
    for (label, bytes) in fixtures() {
        let name = format!("{}.grf", label.replace(' ', "_"));
        let archive = write(dir.path(), &name, &bytes);
        let json_dir = dir.path().join(format!("json {label}"));
        let req = ops::ConvertRequest { to: Some("json".into()), ..Default::default() };
        let report = ops::convert(std::slice::from_ref(&archive), &json_dir, &req, &ops::Quiet);
        assert!(report.failures.is_empty(), "{label}: {:?}", report.failures);
        let rebuilt = dir.path().join(format!("rebuilt {name}"));
        let json = json_dir.join(format!("{name}.json"));
        ops::pack("ro-grf", &json, &rebuilt, &ops::PackOptions::default()).unwrap();
        assert!(std::fs::read(&rebuilt).unwrap() == bytes, "{label}: pack of the JSON differs");
        archives.push(archive);
    }
    let items = ops::check(&archives, &ops::Quiet);
    assert!(items.iter().all(|i| i.outcome == "identical"), "{items:?}");
}

#[test]
fn odd_v1_name_fields_and_sizes_are_kept() {
    // A name field with non-zero lead and tail bytes, one whose name is not padded to a block, and a
    // folder record with sizes that wrap: all come back byte for byte.
    let mut bytes = v1_archive(0x103, &entries(), 0);
    let grf = parse(&bytes).unwrap();
    let table_at = 46 + grf.header.table_offset as usize;
    bytes[table_at + 4] = 0xAB; // entry 0's first lead byte
    let grf = parse(&bytes).unwrap();
    assert_eq!(grf.entries[0].name, "data\\readme.txt", "the lead bytes are not the name");
    let field = grf.entries[0].name_field.clone().expect("kept");
    assert_eq!(field[0], 0xAB);
    let (value, back) = json_round_trip(&bytes);
    assert!(back == bytes);
    assert!(value["entries"][0].get("name_field").is_some());
    assert!(value["entries"][1].get("name_field").is_none());

    // A short name field (no padding; the last partial block stays as stored) and wrapping folder sizes.
    let mut t = Vec::new();
    let field = [&[0u8, 0][..], &ro_des::encipher_name(b"ab")[..8], b"xyz", &[0; 4]].concat();
    t.extend_from_slice(&(field.len() as u32).to_le_bytes());
    t.extend_from_slice(&field);
    t.extend_from_slice(&5u32.to_le_bytes()); // compressed + real + 715 wraps
    t.extend_from_slice(&9u32.to_le_bytes()); // aligned + 37579 wraps
    t.extend_from_slice(&1000u32.to_le_bytes());
    t.push(0);
    t.extend_from_slice(&0u32.to_le_bytes());
    t.extend_from_slice(b"trailing");
    let mut b = b"Master of Magic".to_vec();
    b.extend_from_slice(&KEY);
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&8u32.to_le_bytes());
    b.extend_from_slice(&0x102u32.to_le_bytes());
    b.extend_from_slice(&t);
    let grf = parse(&b).unwrap();
    assert_eq!(grf.entries[0].name_raw, b"ab");
    assert_eq!(grf.entries[0].record.compressed_size, 5u32.wrapping_sub(1000).wrapping_sub(715));
    assert_eq!(grf.entries[0].record.aligned_size, 9u32.wrapping_sub(37_579));
    assert_eq!(grf.table_trailing, b"trailing");
    assert_eq!(json_round_trip(&b).1, b);
}

#[test]
fn edited_documents_are_enciphered_again() {
    let bytes = v1_archive(0x102, &entries(), 0);
    let mut doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    // Renamed: `.txt` (mixed) to `.str` (header-only), `.gnd` (header-only) to `.txt` (mixed), and a longer
    // name: the names are enciphered anew, the data deciphered and enciphered again.
    doc.entries[0].name = "data\\readme.str".into();
    doc.entries[1].name = "data\\map\\prontera.txt".into();
    doc.entries[4].name = "data\\sprite\\a much longer folder\\mid.spr".into();
    let out = write_document(&doc).unwrap();
    let grf = parse(&out).unwrap();
    assert_eq!(grf.entries[0].name, "data\\readme.str");
    assert_eq!(grf.cipher(0), Some(Cipher::Header));
    assert!(matches!(grf.cipher(1), Some(Cipher::Mixed { .. })));
    let want = entries();
    for i in [0, 1, 4, 5] {
        assert_eq!(grf.read_entry(i).unwrap().as_ref(), &want[i].content[..], "{}", grf.entries[i].name);
    }

    // A 0x200 document: flags changed (mixed to plain, plain to header-only).
    let bytes = zlib_archive(Header::V2, &mixed_flags(), 0);
    let mut doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    doc.entries[1].record.flags = 0x01;
    doc.entries[0].record.flags = 0x05;
    let out = write_document(&doc).unwrap();
    let grf = parse(&out).unwrap();
    assert_eq!((grf.cipher(0), grf.cipher(1)), (Some(Cipher::Header), None));
    assert_eq!(grf.read_entry(0).unwrap().as_ref(), &want[0].content[..]);
    assert_eq!(grf.read_entry(1).unwrap().as_ref(), &want[1].content[..]);

    // The version changed: a 0x200 document written as 0x300 (wide header, u64 offsets).
    let mut doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    doc.header.version = 0x300;
    doc.header.seed = 0;
    doc.header.raw_count = doc.entries.len() as u32;
    doc.table.packed = None;
    let out = write_document(&doc).unwrap();
    let grf = parse(&out).unwrap();
    assert_eq!(grf.layout, Layout::V3);
    assert_eq!(grf.read_entry(4).unwrap().as_ref(), &want[4].content[..]);
}

#[test]
fn unrepresentable_documents_are_refused() {
    let bytes = zlib_archive(Header::Wide, &mixed_flags(), 0);
    let doc: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    // A 0x300 header with a seed under 256 has no form.
    let mut d = doc.clone();
    d.header.seed = 5;
    assert!(write_document(&d).unwrap_err().to_string().contains("header.seed"));
    // A 0x200 table offset past 4 GiB.
    let bytes = zlib_archive(Header::V2, &mixed_flags(), 0);
    let mut d: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    d.header.table_offset = 1 << 33;
    let err = write_document(&d).unwrap_err().to_string();
    assert!(err.contains("header.table_offset") && err.contains("0x300"), "{err}");
    // A 0x200 entry offset past 4 GiB.
    let mut d: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    d.entries[0].record.offset = 1 << 32;
    let err = write_document(&d).unwrap_err().to_string();
    assert!(err.contains("entries[0].offset") && err.contains("0x300"), "{err}");
    // Enciphered data of the wrong length.
    let mut d: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    d.entries[1].data.as_mut().unwrap().0.pop();
    assert!(write_document(&d).unwrap_err().to_string().contains("entries[1].compressed_size"));
    // A plain entry flagged mixed whose aligned size runs past the file: refused before any buffer grows.
    let mut d: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    d.entries[0].record.flags = 0x03;
    d.entries[0].record.aligned_size = 1 << 31;
    assert!(write_document(&d).unwrap_err().to_string().contains("entries[0].aligned_size"));
    // An unknown version.
    let mut d: GrfDocument = serde_json::from_value(grf::FORMAT.to_json(&bytes).unwrap()).unwrap();
    d.header.version = 0x250;
    assert!(write_document(&d).unwrap_err().to_string().contains("header.version"));
}

// =========================================================================================================
// New archives of each version

fn input(name: &str, data: &[u8]) -> PackInput {
    PackInput { name: encode_name(name).unwrap(), source: PackSource::Bytes(data.to_vec()) }
}

#[test]
fn the_writer_writes_every_version_and_the_reader_reads_it() {
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("data/readme.txt", b"written by relic".to_vec()),
        ("data/map/a.gnd", noise(2000, 7)),
        ("data/텍스트/안녕.txt", ANNYEONG.to_vec()),
        ("data/big.spr", noise(20_000, 8)),
        ("empty", vec![]),
    ];
    for version in [0x102u32, 0x103, 0x200, 0x300] {
        let inputs = files.iter().map(|(n, d)| input(n, d)).collect();
        let bytes = grf::write_archive_bytes(inputs, version).unwrap();
        let grf = parse(&bytes).unwrap();
        assert_eq!(grf.header.version, version);
        assert_eq!(grf.header.entry_count(), Some(5));
        let mut got: Vec<(String, Vec<u8>)> = (0..grf.len())
            .map(|i| (grf.entries[i].name.replace('\\', "/"), grf.read_entry(i).unwrap().into_owned()))
            .collect();
        got.sort();
        let mut want: Vec<(String, Vec<u8>)> = files.iter().map(|(n, d)| (n.to_string(), d.clone())).collect();
        want.sort();
        assert_eq!(got, want, "0x{version:X}");
        let layout = grf.layout;
        assert_eq!(grf.entries.iter().filter(|e| e.name_field.is_some()).count(), 0);
        let enciphered = (0..grf.len()).filter(|&i| grf.cipher(i).is_some()).count();
        assert_eq!(enciphered, if layout == Layout::V1 { 5 } else { 0 }, "0x{version:X}");
        // 1.x data is the independent cipher's: the `.gnd` entry's stored bytes are its zlib stream, padded
        // and header-enciphered.
        if layout == Layout::V1 {
            let i = grf.find_ci("data/map/a.gnd").unwrap();
            let mut expected = relic::codec::zlib::compress(&files[1].1, 9);
            let compressed = expected.len();
            expected.resize(compressed.div_ceil(8) * 8, 0);
            ro_des::encipher_entry(&mut expected, false, compressed);
            assert_eq!(grf.stored(i), &expected[..]);
            let i = grf.find_ci("data/big.spr").unwrap();
            let mut expected = relic::codec::zlib::compress(&files[3].1, 9);
            let compressed = expected.len();
            expected.resize(compressed.div_ceil(8) * 8, 0);
            ro_des::encipher_entry(&mut expected, true, compressed);
            assert_eq!(grf.stored(i), &expected[..]);
        }
        assert_eq!(json_round_trip(&bytes).1, bytes, "0x{version:X}");
    }
    assert!(grf::write_archive_bytes(vec![input("a", b"1")], 0x201).unwrap_err().to_string().contains("0x201"));
}

#[test]
fn pack_from_a_folder_takes_a_version() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("data/texture")).unwrap();
    std::fs::write(src.join("data/texture/wall.bmp"), tiny_bmp()).unwrap();
    std::fs::write(src.join("data/readme.txt"), b"hello").unwrap();
    for (version, name) in [(None, "default.grf"), (Some(0x300), "v3.grf"), (Some(0x103), "v1.grf")] {
        let out = dir.path().join(name);
        let opts = ops::PackOptions { version, ..Default::default() };
        ops::pack("ro-grf", &src, &out, &opts).unwrap();
        let (_, info) = ops::info(&out).unwrap();
        assert_eq!(info["version"], format!("0x{:X}", version.unwrap_or(0x200)));
        let back = dir.path().join(format!("{name}.out"));
        let report = ops::extract(&out, &back, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
        assert_eq!(report.written.len(), 2);
        assert_eq!(std::fs::read(back.join("data/texture/wall.bmp")).unwrap(), tiny_bmp());
    }
    let bad = ops::PackOptions { version: Some(0x999), ..Default::default() };
    let err = ops::pack("ro-grf", &src, &dir.path().join("bad.grf"), &bad).unwrap_err().to_string();
    assert!(err.contains("0x999") && err.contains("0x300"), "{err}");
    let other = ops::PackOptions { version: Some(0x300), ..Default::default() };
    assert!(ops::pack("ei-res", &src, &dir.path().join("x.res"), &other).is_err());
}

#[test]
fn a_0x200_archive_past_4_gib_is_refused_before_writing() {
    // Planned from the sizes alone: three 1.5 GiB streams need offsets past 4 GiB.
    let sizes = [3u32 << 29, 3 << 29, 3 << 29];
    let err = grf::write::plan_offsets(0x200, sizes).unwrap_err().to_string();
    assert!(err.contains("4 GiB") && err.contains("--version 0x300"), "{err}");
    assert!(grf::write::plan_offsets(0x103, sizes).unwrap_err().to_string().contains("--version 0x300"));
    let (offsets, table) = grf::write::plan_offsets(0x300, sizes).unwrap();
    assert_eq!(offsets, [0, 3 << 29, 3 << 30]);
    assert_eq!(table, 9 << 29);
    // Just under the limit is fine.
    let (_, table) = grf::write::plan_offsets(0x200, [u32::MAX - 7]).unwrap();
    assert_eq!(table, u64::from(u32::MAX - 7));
}

#[test]
fn a_sparse_0x300_archive_past_4_gib_extracts() {
    // Entry A at offset 0, entry B past 4 GiB, the table after it: the file is sparse, so it takes a few
    // kilobytes of disk and is memory-mapped like any other.
    let a = b"the first entry".to_vec();
    let b = noise(5000, 9);
    let (stored_a, ca, aa) = stored(&a, None);
    let (stored_b, cb, ab) = stored(&b, Some(true)); // mixed, as flag 0x03 says
    let offset_b: u64 = (1 << 32) + 4096;
    let mut table = Vec::new();
    for (name, c, al, real, flags, off) in [
        (&b"data\\a.txt"[..], ca, aa, a.len() as u32, 1u8, 0u64),
        (b"data\\far\\b.bin", cb, ab, b.len() as u32, 3, offset_b),
    ] {
        table.extend_from_slice(name);
        table.push(0);
        for v in [c, al, real] {
            table.extend_from_slice(&v.to_le_bytes());
        }
        table.push(flags);
        table.extend_from_slice(&off.to_le_bytes());
    }
    let packed = zlib6(&table);
    let table_offset = offset_b + stored_b.len() as u64;
    let mut header = b"Master of Magic".to_vec();
    header.extend_from_slice(&KEY);
    header.extend_from_slice(&table_offset.to_le_bytes());
    header.extend_from_slice(&2u32.to_le_bytes());
    header.extend_from_slice(&0x300u32.to_le_bytes());
    let mut tail = 0u32.to_le_bytes().to_vec();
    tail.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    tail.extend_from_slice(&(table.len() as u32).to_le_bytes());
    tail.extend_from_slice(&packed);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.grf");
    let mut f = std::fs::File::create(&path).unwrap();
    let size = 46 + table_offset + tail.len() as u64;
    f.set_len(size).unwrap();
    f.write_all(&header).unwrap();
    f.write_all(&stored_a).unwrap();
    f.seek(SeekFrom::Start(46 + offset_b)).unwrap();
    f.write_all(&stored_b).unwrap();
    f.write_all(&tail).unwrap();
    drop(f);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
    assert!(size > 1 << 32);

    let out = dir.path().join("out");
    let report = ops::extract(&path, &out, &ops::ExtractOptions::default(), &ops::Quiet).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(std::fs::read(out.join("data/a.txt")).unwrap(), a);
    assert_eq!(std::fs::read(out.join("data/far/b.bin")).unwrap(), b);
    let (_, info) = ops::info(&path).unwrap();
    assert_eq!((info["version"].as_str(), info["file_size"].as_u64()), (Some("0x300"), Some(size)));
    let listed = ops::list(&path, false).unwrap();
    assert_eq!(listed.iter().map(|e| &*e.path).collect::<Vec<_>>(), ["data/a.txt", "data/far/b.bin"]);
}

// =========================================================================================================
// Robustness

/// Parses, deciphers and inflates every entry, and rebuilds the document (the result borrows the input).
fn parse_all(b: &[u8]) -> relic::Result<usize> {
    let grf = parse(b)?;
    let mut n = 0;
    for e in convert::entries(&grf) {
        n += e.data.bytes().map(|d| d.len()).unwrap_or(0);
        let _ = e.data.head(64);
    }
    let _ = grf.find_ci("data/readme.txt");
    Ok(n)
}

/// Every version's fixture with the first five entries (mixed, header-only, Korean, shuffled blocks), small
/// enough to truncate and flip at every byte.
fn small_fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let (v1, v2) = (&entries()[..5], &mixed_flags()[..5]);
    vec![
        ("0x102", v1_archive(0x102, v1, 0)),
        ("0x103", v1_archive(0x103, v1, 5)),
        ("0x200", zlib_archive(Header::V2, v2, 0)),
        ("0x300", zlib_archive(Header::Wide, v2, 0)),
        ("0x300 older header", zlib_archive(Header::Older, v2, 0)),
    ]
}

#[test]
fn robustness_of_every_version() {
    for (label, bytes) in small_fixtures() {
        // The table ends every fixture (1.x: runs to its end), so every truncation loses part of it.
        let report = relic::testing::check_robustness(&bytes, true, parse_all);
        assert!(report.flips_rejected > 0, "{label}");
    }
    // The whole fixtures (entries of 12 000 bytes, cycle 14), at sampled positions.
    for (label, bytes) in fixtures() {
        let report = relic::testing::check_robustness_sampled(&bytes, true, 300, parse_all);
        assert!(report.flips_rejected > 0, "{label}");
    }
}

#[test]
fn flipped_files_that_parse_rebuild_from_their_documents() {
    for (label, bytes) in small_fixtures() {
        let mut parsed = 0;
        for pos in (0..bytes.len()).step_by(3) {
            for mask in [0xFFu8, 0x01] {
                let mut b = bytes.clone();
                b[pos] ^= mask;
                let Ok(archive) = parse(&b) else { continue };
                parsed += 1;
                let doc = convert::to_document(&archive);
                let back = write_document(&doc).unwrap_or_else(|e| panic!("{label}: byte {pos} ^ {mask:02X}: {e}"));
                assert!(back == b, "{label}: byte {pos} flipped with 0x{mask:02X}");
            }
        }
        assert!(parsed > 100, "{label}: only {parsed} variants parsed");
    }
}

#[test]
fn hostile_v1_tables_are_located() {
    let good = v1_archive(0x102, &entries(), 0);
    let table_at = 46 + u32::from_le_bytes(good[30..34].try_into().unwrap()) as usize;
    // A name field shorter than its framing, and one running past the end.
    for (len, field) in [(3u32, "name_length"), (1 << 30, "name")] {
        let mut b = good.clone();
        b[table_at..table_at + 4].copy_from_slice(&len.to_le_bytes());
        let err = parse(&b).unwrap_err();
        let at = err.location().unwrap();
        assert_eq!(at.field, format!("table.entries[0].{field}"), "{err}");
        assert_eq!(at.offset, table_at as u64 + if len == 3 { 0 } else { 4 }, "{err}");
    }
    // More entries than the table can hold.
    let mut b = good.clone();
    b[38..42].copy_from_slice(&100_000u32.to_le_bytes());
    assert!(matches!(parse(&b), Err(Error::Limit { .. })));
    // An entry whose data lies past the end.
    let mut b = good.clone();
    let field_len = u32::from_le_bytes(b[table_at..table_at + 4].try_into().unwrap()) as usize;
    let offset_at = table_at + 4 + field_len + 13;
    b[offset_at..offset_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = parse(&b).unwrap_err();
    assert_eq!(err.location().unwrap().field, "table.entries[0].offset", "{err}");
    // An enciphered entry declaring a huge inflated size is refused before anything is allocated.
    let mut b = good;
    let real_at = table_at + 4 + field_len + 8;
    let real = u32::from_le_bytes(b[real_at..real_at + 4].try_into().unwrap());
    let stored_a = u32::from_le_bytes(b[real_at - 8..real_at - 4].try_into().unwrap());
    b[real_at..real_at + 4].copy_from_slice(&0xFFFF_FF00u32.to_le_bytes());
    // Keep the compressed size: stored compressed + real + 715 moves with the real size.
    b[real_at - 8..real_at - 4].copy_from_slice(&stored_a.wrapping_sub(real).wrapping_add(0xFFFF_FF00).to_le_bytes());
    let grf = parse(&b).unwrap();
    let err = grf.read_entry(0).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    let _: GrfRecord = grf.entries[0].record;
}

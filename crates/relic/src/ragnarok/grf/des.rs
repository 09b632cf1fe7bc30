//! The cipher of GRF archives: Gravity's DES variant and the "mixed" scheme built on it.
//!
//! **The block function.** DES (FIPS 46-3) cut down to its initial permutation IP, *one* Feistel round with
//! an all-zero subkey — `L ^= P(S(E(R)))`, `R` unchanged, no swap — and the final permutation FP = IP⁻¹,
//! on 8-byte blocks, DES bit 1 being the most significant bit of the first byte. The key GRF tools and the
//! client derive from file names never reaches the round (the "broken key schedule" libgrf describes), so
//! the function is the same for every block, and it is its own inverse: enciphering and deciphering are one
//! operation. The tables below are typed in from the standard; the fast tables the function runs on (IP/FP
//! by byte, the S-boxes merged with P) are computed from them at compile time.
//!
//! **Entries** (flag 0x02, "mixed"; in 1.x archives decided by the extension): the first 20 blocks go
//! through the block function; after them, block `i` does too when `i % cycle == 0`, and of the other
//! blocks every seventh one (the 7th, 14th, … counted from the first block past 20 that is not a DES block)
//! is *shuffled* instead: its bytes reordered and byte 7 substituted. The cycle comes from the number of
//! decimal digits of the entry's compressed size: 1 below 3 digits, digits + 1 below 5, digits + 9 below 7,
//! digits + 15 from 7 on. Entries flagged 0x04 ("header") only have their first 20 blocks through the block
//! function. A trailing partial block is left as stored. (rathena's `grfio`, libgrf and GRF Editor agree on
//! all of this; GRF Editor raises a cycle below 3 to 3 where rathena keeps 1, which changes nothing for a
//! consistent entry: under 100 compressed bytes there is no block past the 20th.)
//!
//! **Names** of 1.x archives: each whole 8-byte block has its nibbles swapped, then goes through the block
//! function (enciphering is the reverse order).

/// Blocks at the start of an entry that always go through the block function.
pub const HEADER_BLOCKS: usize = 20;
/// Of the blocks past the header that are not DES blocks, every this-many-th one is shuffled.
pub const SHUFFLE_PERIOD: u64 = 7;

// ---------------------------------------------------------------------------------------------------------
// The standard's tables (FIPS 46-3), bit 1 being the most significant.

/// Initial permutation: output bit i is input bit `IP[i]`.
const IP: [u8; 64] = [
    58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4, //
    62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8, //
    57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3, //
    61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
];

/// Final permutation (IP⁻¹).
const FP: [u8; 64] = [
    40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31, //
    38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29, //
    36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27, //
    34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
];

/// Expansion of the right half into eight 6-bit groups (used by the tests to check the rotation that
/// replaces it).
#[cfg_attr(not(test), allow(dead_code))]
const E: [u8; 48] = [
    32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17, //
    16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25, 24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
];

/// Permutation of the S-boxes' 32 output bits.
const P: [u8; 32] = [
    16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10, 2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4,
    25,
];

/// S-boxes S1–S8, four rows of 16 each; a 6-bit input `b1…b6` picks row `b1b6` and column `b2b3b4b5`.
const S: [[u8; 64]; 8] = [
    [
        14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7, //
        0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8, //
        4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0, //
        15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13,
    ],
    [
        15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10, //
        3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5, //
        0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15, //
        13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9,
    ],
    [
        10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8, //
        13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1, //
        13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7, //
        1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12,
    ],
    [
        7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15, //
        13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9, //
        10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4, //
        3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14,
    ],
    [
        2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9, //
        14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6, //
        4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14, //
        11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3,
    ],
    [
        12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11, //
        10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8, //
        9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6, //
        4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13,
    ],
    [
        4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1, //
        13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6, //
        1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2, //
        6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12,
    ],
    [
        13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7, //
        1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2, //
        7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8, //
        2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11,
    ],
];

/// Gravity's substitution of a shuffled block's last byte: seven pairs swapped, every other value kept (so
/// it is its own inverse).
const SUBSTITUTION: [(u8, u8); 7] =
    [(0x00, 0x2B), (0x6C, 0x80), (0x01, 0x68), (0x48, 0x77), (0x60, 0xFF), (0xB9, 0xC0), (0xFE, 0xEB)];

// ---------------------------------------------------------------------------------------------------------
// Fast tables, computed from the standard's at compile time.

/// A 64-bit permutation as eight tables of 256: the output bits each value of input byte k sets.
const fn permutation_by_byte(perm: &[u8; 64]) -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    let mut i = 0;
    while i < 64 {
        let j = (perm[i] - 1) as usize;
        let (byte, bit) = (j / 8, 7 - j % 8);
        let mut v = 0;
        while v < 256 {
            if (v >> bit) & 1 == 1 {
                t[byte][v] |= 1 << (63 - i);
            }
            v += 1;
        }
        i += 1;
    }
    t
}

/// S-box `i` followed by P, for each 6-bit input: the bits it contributes to the round function's output.
const fn sp_tables() -> [[u32; 64]; 8] {
    let mut t = [[0u32; 64]; 8];
    let mut i = 0;
    while i < 8 {
        let mut v = 0;
        while v < 64 {
            let row = ((v >> 4) & 2) | (v & 1);
            let col = (v >> 1) & 0xF;
            // S-box i fills bits 4i+1 … 4i+4 of the S output (bit 1 the most significant).
            let s = (S[i][row * 16 + col] as u32) << (28 - 4 * i);
            let mut out = 0u32;
            let mut o = 0;
            while o < 32 {
                if (s >> (32 - P[o] as u32)) & 1 == 1 {
                    out |= 1 << (31 - o);
                }
                o += 1;
            }
            t[i][v] = out;
            v += 1;
        }
        i += 1;
    }
    t
}

static IP_BY_BYTE: [[u64; 256]; 8] = permutation_by_byte(&IP);
static FP_BY_BYTE: [[u64; 256]; 8] = permutation_by_byte(&FP);
static SP: [[u32; 64]; 8] = sp_tables();

fn permute(table: &[[u64; 256]; 8], x: u64) -> u64 {
    let mut out = 0;
    for (t, byte) in table.iter().zip(x.to_be_bytes()) {
        out |= t[usize::from(byte)];
    }
    out
}

/// The round function with a zero subkey: E, the S-boxes, P. Group k of E is bits 4k … 4k+5 of R (DES
/// numbering, bit 0 being bit 32), which a rotation brings to the low six bits.
fn round(r: u32) -> u32 {
    let mut out = 0;
    for (k, sp) in SP.iter().enumerate() {
        out |= sp[(r.rotate_left(4 * k as u32 + 5) & 0x3F) as usize];
    }
    out
}

/// The block function (its own inverse).
pub fn des_block(block: &mut [u8; 8]) {
    let x = permute(&IP_BY_BYTE, u64::from_be_bytes(*block));
    let (l, r) = ((x >> 32) as u32, x as u32);
    let l = l ^ round(r);
    *block = permute(&FP_BY_BYTE, (u64::from(l) << 32) | u64::from(r)).to_be_bytes();
}

fn substitute(b: u8) -> u8 {
    SUBSTITUTION.iter().find_map(|&(x, y)| (b == x).then_some(y).or((b == y).then_some(x))).unwrap_or(b)
}

/// A shuffled block back: bytes 3 4 6 0 1 2 5, byte 7 substituted.
fn unshuffle(b: &mut [u8; 8]) {
    *b = [b[3], b[4], b[6], b[0], b[1], b[2], b[5], substitute(b[7])];
}

/// The reverse of [`unshuffle`].
fn shuffle(b: &mut [u8; 8]) {
    *b = [b[3], b[4], b[5], b[0], b[1], b[6], b[2], substitute(b[7])];
}

/// How an entry's stored bytes are enciphered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cipher {
    /// The first 20 blocks, then every `cycle`-th block, and every seventh other block shuffled.
    Mixed { cycle: u32 },
    /// The first 20 blocks only.
    Header,
}

/// The cycle of a mixed entry of `compressed` bytes, from its number of decimal digits.
pub fn cycle(compressed: u32) -> u32 {
    let digits = compressed.checked_ilog10().map_or(1, |d| d + 1);
    match digits {
        0..=2 => 1,
        3..=4 => digits + 1,
        5..=6 => digits + 9,
        _ => digits + 15,
    }
}

/// Runs the scheme over the whole 8-byte blocks of `buf` (a prefix of an entry's stored bytes is fine: a
/// block's treatment depends only on its index).
fn run(buf: &mut [u8], cipher: Cipher, mix: fn(&mut [u8; 8])) {
    let cycle = match cipher {
        Cipher::Mixed { cycle } => u64::from(cycle.max(1)),
        Cipher::Header => 0,
    };
    let mut others = 0u64;
    for (i, chunk) in buf.chunks_exact_mut(8).enumerate() {
        let Ok(block) = <&mut [u8; 8]>::try_from(chunk) else { break };
        if i < HEADER_BLOCKS {
            des_block(block);
            continue;
        }
        if cycle == 0 {
            break;
        }
        if i as u64 % cycle == 0 {
            des_block(block);
            continue;
        }
        if others % SHUFFLE_PERIOD == 0 && others != 0 {
            mix(block);
        }
        others += 1;
    }
}

/// Deciphers an entry's stored bytes in place.
pub fn decipher(buf: &mut [u8], cipher: Cipher) {
    run(buf, cipher, unshuffle);
}

/// Enciphers an entry's bytes in place (the inverse of [`decipher`]).
pub fn encipher(buf: &mut [u8], cipher: Cipher) {
    run(buf, cipher, shuffle);
}

/// [`decipher`] with the cipher as one number, for [`crate::asset::Decipher`]: 0 for [`Cipher::Header`],
/// the cycle for [`Cipher::Mixed`].
pub fn decipher_param(buf: &mut [u8], param: u32) {
    decipher(buf, from_param(param));
}

pub fn to_param(cipher: Cipher) -> u32 {
    match cipher {
        Cipher::Mixed { cycle } => cycle.max(1),
        Cipher::Header => 0,
    }
}

fn from_param(param: u32) -> Cipher {
    match param {
        0 => Cipher::Header,
        cycle => Cipher::Mixed { cycle },
    }
}

fn swap_nibbles(block: &mut [u8; 8]) {
    for b in block.iter_mut() {
        *b = b.rotate_left(4);
    }
}

/// Deciphers a 1.x name in place: each whole block nibble-swapped, then through the block function; a
/// trailing partial block is left as stored.
pub fn decipher_name(buf: &mut [u8]) {
    for chunk in buf.chunks_exact_mut(8) {
        if let Ok(block) = <&mut [u8; 8]>::try_from(chunk) {
            swap_nibbles(block);
            des_block(block);
        }
    }
}

/// Enciphers a 1.x name in place (the inverse of [`decipher_name`]).
pub fn encipher_name(buf: &mut [u8]) {
    for chunk in buf.chunks_exact_mut(8) {
        if let Ok(block) = <&mut [u8; 8]>::try_from(chunk) {
            des_block(block);
            swap_nibbles(block);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit `n` (1-based, 1 the most significant) of a 64-bit block.
    fn bit(x: u64, n: u8) -> u64 {
        (x >> (64 - n)) & 1
    }

    fn permute_slow(perm: &[u8; 64], x: u64) -> u64 {
        perm.iter().fold(0, |acc, &p| (acc << 1) | bit(x, p))
    }

    /// The round function straight from the standard: E by its table, each S-box by row and column, P.
    fn round_slow(r: u32) -> u32 {
        let r64 = u64::from(r) << 32;
        let e: Vec<u64> = E.iter().map(|&p| bit(r64, p)).collect();
        let mut s_out = 0u32;
        for (k, group) in e.chunks(6).enumerate() {
            let v = group.iter().fold(0usize, |acc, &b| (acc << 1) | b as usize);
            let row = ((v >> 4) & 2) | (v & 1);
            let col = (v >> 1) & 0xF;
            s_out |= u32::from(S[k][row * 16 + col]) << (28 - 4 * k);
        }
        P.iter().fold(0, |acc, &p| (acc << 1) | ((s_out >> (32 - p)) & 1))
    }

    fn block_slow(x: u64) -> u64 {
        let y = permute_slow(&IP, x);
        let (l, r) = ((y >> 32) as u32, y as u32);
        permute_slow(&FP, (u64::from(l ^ round_slow(r)) << 32) | u64::from(r))
    }

    fn samples() -> impl Iterator<Item = u64> {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        (0..2000).map(move |_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
    }

    #[test]
    fn fast_tables_agree_with_the_standard() {
        for r in samples().map(|x| x as u32).chain([0, u32::MAX, 1, 0x8000_0000]) {
            assert_eq!(round(r), round_slow(r), "R = {r:08X}");
        }
        for x in samples().chain([0, u64::MAX]) {
            assert_eq!(permute(&IP_BY_BYTE, x), permute_slow(&IP, x));
            assert_eq!(permute(&FP_BY_BYTE, permute(&IP_BY_BYTE, x)), x, "FP is IP's inverse");
            let mut b = x.to_be_bytes();
            des_block(&mut b);
            assert_eq!(u64::from_be_bytes(b), block_slow(x));
            des_block(&mut b);
            assert_eq!(u64::from_be_bytes(b), x, "the block function is its own inverse");
        }
    }

    /// Outputs of the block function computed with a transcription of rathena's `des.cpp` (its merged
    /// S-box tables and bit loops, a different construction from relic's), so that the standard's tables
    /// as typed here are checked against an implementation that reads real archives.
    #[test]
    fn known_answers() {
        for (input, output) in KNOWN {
            let mut b = input.to_be_bytes();
            des_block(&mut b);
            assert_eq!(u64::from_be_bytes(b), output, "{input:016X}");
        }
    }

    const KNOWN: [(u64, u64); 8] = [
        (0x0000000000000000, 0x0404015555015455),
        (0xFFFFFFFFFFFFFFFF, 0xEAEEFFAAABBBEAEA),
        (0x0123456789ABCDEF, 0x5176057698EAD9EB),
        (0x8000000000000001, 0x9404404554011454),
        (0xDEADBEEFCAFEBABE, 0xDFACAFFA9EFBAFAB),
        (0x789C4B4C4A060002, 0x3D984A190E020156),
        (0x0011223344556677, 0x1415263704443322),
        (0xFEDCBA9876543210, 0xAA99FFC836016345),
    ];

    fn fnv1a(bytes: &[u8]) -> u64 {
        bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
    }

    /// The same transcription's `grf_decode_full` (cycle of a 1000-byte entry: 5) and `grf_decode_header`,
    /// over 60 and 60⅝ blocks of a counting pattern, and its `decode_filename`: FNV-1a of the results.
    #[test]
    fn known_answers_of_the_schemes() {
        let pattern = |n: usize| (0..n).map(|i| (i * 37 + 11) as u8).collect::<Vec<u8>>();
        let mut b = pattern(480);
        decipher(&mut b, Cipher::Mixed { cycle: cycle(1000) });
        assert_eq!(fnv1a(&b), 0x5fc5_180e_97fe_5003);
        let mut b = pattern(485);
        decipher(&mut b, Cipher::Header);
        assert_eq!(fnv1a(&b), 0xea34_815c_be17_9e2f);
        let mut name = b"data\\texture\\a.bmp\0\0\0\0\0\0".to_vec();
        decipher_name(&mut name);
        assert_eq!(
            name,
            [
                0x43, 0x06, 0x46, 0x16, 0x81, 0x57, 0x46, 0xd2, 0x42, 0x43, 0x66, 0x42, 0x84, 0x07, 0xe6, 0x23, 0xc2,
                0x07, 0x40, 0x01, 0x54, 0x01, 0x14, 0x45,
            ]
        );
    }

    #[test]
    fn shuffle_and_substitution_invert() {
        for x in samples() {
            let mut b = x.to_be_bytes();
            shuffle(&mut b);
            unshuffle(&mut b);
            assert_eq!(b, x.to_be_bytes());
        }
        for v in 0..=255u8 {
            assert_eq!(substitute(substitute(v)), v);
        }
        assert_eq!((substitute(0x00), substitute(0xEB), substitute(0x42)), (0x2B, 0xFE, 0x42));
        let mut b = [0, 1, 2, 3, 4, 5, 6, 0x60];
        unshuffle(&mut b);
        assert_eq!(b, [3, 4, 6, 0, 1, 2, 5, 0xFF]);
    }

    #[test]
    fn cycles_follow_the_digits() {
        let cases = [(0, 1), (9, 1), (99, 1), (100, 4), (9_999, 5), (10_000, 14), (999_999, 15), (1_000_000, 22)];
        for (size, want) in cases {
            assert_eq!(cycle(size), want, "{size}");
        }
        assert_eq!(cycle(u32::MAX), 25);
    }

    #[test]
    fn entries_and_names_round_trip() {
        let data: Vec<u8> = samples().take(100).flat_map(u64::to_le_bytes).chain([1, 2, 3]).collect();
        for cipher in
            [Cipher::Header, Cipher::Mixed { cycle: 1 }, Cipher::Mixed { cycle: 4 }, Cipher::Mixed { cycle: 22 }]
        {
            let mut b = data.clone();
            encipher(&mut b, cipher);
            assert_ne!(b, data);
            assert_eq!(&b[b.len() - 3..], [1, 2, 3], "a partial block stays as it is");
            let mut prefix = b[..200].to_vec();
            decipher(&mut b, cipher);
            assert_eq!(b, data, "{cipher:?}");
            decipher(&mut prefix, cipher);
            assert_eq!(prefix, data[..200], "a prefix deciphers alone");
        }
        // Header-only leaves everything past block 20 as it is.
        let mut b = data.clone();
        encipher(&mut b, Cipher::Header);
        assert_eq!(b[160..], data[160..]);
        let mut name = b"data\\texture\\a.bmp\0\0\0\0\0\0".to_vec();
        encipher_name(&mut name);
        decipher_name(&mut name);
        assert_eq!(name, b"data\\texture\\a.bmp\0\0\0\0\0\0");
    }
}

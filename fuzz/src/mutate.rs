//! Structure-aware mutators (issue 23) for the formats whose costly inputs are made of chains and shared
//! bodies, which byte mutation almost never builds: a new table record has to agree with the header's count
//! and offsets, a shared body needs two records with the same offset and size, a hash collision needs a name
//! of the same byte sum.
//!
//! Each mutator parses the input into a small model (the bytes before the table kept as they are, the
//! records decoded), applies one structure move, and writes the table back with valid header fields (count,
//! table or directory offset, name offsets), so the result gets past the header checks. One time in four,
//! and whenever the input does not parse as the model (or the result would pass `max_size`), libFuzzer's own
//! byte mutation runs instead; libFuzzer chains several mutations per input, so both kinds combine.
//!
//! | mutator | target | moves |
//! |---|---|---|
//! | [`lnk`] | `format` (`ei-lnk`) | a chain of new parts with parents stored later, a parent moved after its children, the order reversed, a cycle, one long chain through all parts, a parent named in another case, a repeated name |
//! | [`res`] | `format` (`ei-res`) | (table moves) + a self-looping hash slot, a `next_index` to another record, a name colliding in another's slot (same byte sum), many names in one slot |
//! | [`ftg`] | `format` (`dr-ftg`) | table moves |
//! | [`srsc`] | `format` (`drakan-srsc`), `drakan_scene` | table moves (flooded records get new ids of the same type: many textures or models on one body) |
//! | [`grf`] | `ro_grf_v2` (its parts form) | table moves (a shared body copies the three sizes and flags too) |
//!
//! The table moves, common to the four archive formats: a record duplicated (same body, same name), a record
//! re-pointed at another's body, a record's body made to overlap another's (shifted start or longer), a
//! flood of up to 256 records on one body (names varied, keeping their hash slot), a record moved or two
//! swapped.

use relic::evil_islands::lnk::{self, Link};

/// A small deterministic generator seeded by libFuzzer (so a mutation replays).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u32) -> Rng {
        Rng(u64::from(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// The mutator body of a target: the structural move `mutate` three times in four, libFuzzer's byte
/// mutation otherwise and when `mutate` gives nothing or too much.
pub fn run(data: &mut [u8], size: usize, max_size: usize, seed: u32, mutate: Mutator) -> usize {
    let mut rng = Rng::new(seed);
    if rng.below(4) != 0 {
        if let Some(out) = mutate(&data[..size], &mut rng, max_size).filter(|o| o.len() <= max_size) {
            data[..out.len()].copy_from_slice(&out);
            return out.len();
        }
    }
    libfuzzer_sys::fuzzer_mutate(data, size, max_size)
}

/// A structure mutator: one move on the input, or `None` when the input does not parse as its model.
pub type Mutator = fn(&[u8], &mut Rng, usize) -> Option<Vec<u8>>;

/// The structure mutator of a format, by id; `None` for formats whose costly inputs byte mutation reaches.
pub fn for_format(id: &str) -> Option<Mutator> {
    match id {
        "ei-lnk" => Some(lnk),
        "ei-res" => Some(res),
        "dr-ftg" => Some(ftg),
        "drakan-srsc" => Some(srsc),
        _ => None,
    }
}

/// The mutator body of the `format` target: the file after the prefix ([`crate::PREFIX`]) is mutated as
/// its format's target would be ([`for_format`], else libFuzzer's byte mutation), so an input stays the
/// format it was seeded as; one time in 32 the name byte changes instead, so every name of a format is
/// reached from the seeds of one.
pub fn run_format(data: &mut [u8], size: usize, max_size: usize, seed: u32) -> usize {
    let prefix = crate::PREFIX;
    if size < prefix || max_size <= prefix {
        return libfuzzer_sys::fuzzer_mutate(data, size, max_size);
    }
    let mut rng = Rng::new(seed);
    if rng.below(32) == 0 {
        data[1] = rng.below(256) as u8;
        return size;
    }
    let format = crate::pick(&data[..size]).map(|(f, _, _)| f);
    let file = &mut data[prefix..];
    let (size, max_size) = (size - prefix, max_size - prefix);
    let grown = match format.and_then(|f| for_format(f.id)) {
        Some(mutate) => run(file, size, max_size, seed.rotate_left(7), mutate),
        None => libfuzzer_sys::fuzzer_mutate(file, size, max_size),
    };
    grown + prefix
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

// ---------------------------------------------------------------------------------------------------------
// LNK: the part hierarchy, read and written by relic's own reader and writer.

/// `ei_lnk`: one move on the parsed links (see the module table), written by `lnk::write`.
pub fn lnk(data: &[u8], rng: &mut Rng, max_size: usize) -> Option<Vec<u8>> {
    let mut file = lnk::parse(data).ok()?;
    let links = &mut file.links;
    let n = links.len();
    let pick = |rng: &mut Rng| rng.below(n);
    match rng.below(7) {
        0 => {
            // A chain of new parts, each hanging from the next one stored; the last from an old part.
            let room = max_size.saturating_sub(data.len()) / 20;
            let most = if rng.below(4) == 0 { 4000 } else { 64 };
            let k = (1 + rng.below(most)).min(room.max(1));
            let tag = rng.below(1000);
            let top = (n > 0).then(|| links[pick(rng)].name.clone());
            for i in 0..k {
                let parent = if i + 1 < k { Some(format!("C{tag}_{}", i + 1)) } else { top.clone() };
                links.push(Link { name: format!("c{tag}_{i}"), parent, ..Link::default() });
            }
        }
        1 if n > 1 => {
            // A part that has children moved to the end: its parent link now comes after them.
            let i = pick(rng);
            let link = links.remove(i);
            links.push(link);
        }
        2 if n > 1 => links.reverse(),
        3 if n > 0 => {
            // A part hangs from another (possibly itself or a descendant: a cycle).
            let (i, j) = (pick(rng), pick(rng));
            links[i].parent = Some(links[j].name.clone());
        }
        4 if n > 1 => {
            // One long chain through every part, parents stored later, the last a root.
            for i in 0..n - 1 {
                links[i].parent = Some(links[i + 1].name.clone());
            }
            links[n - 1].parent = None;
        }
        5 if n > 0 => {
            // A parent named in another case (parents are matched ignoring ASCII case).
            let i = pick(rng);
            links[i].parent = links[i].parent.as_ref().map(|p| {
                if p.chars().any(|c| c.is_ascii_lowercase()) {
                    p.to_ascii_uppercase()
                } else {
                    p.to_ascii_lowercase()
                }
            });
        }
        6 if n > 1 => {
            let (i, j) = (pick(rng), pick(rng));
            links[i].name = links[j].name.clone();
        }
        _ => return None,
    }
    lnk::write(&file).ok()
}

// ---------------------------------------------------------------------------------------------------------
// Table archives: the bytes before the table, kept, and the records.

/// One table record: its name, body range, and the format's other fields (`extra`).
#[derive(Clone, Debug)]
struct Rec {
    name: Vec<u8>,
    offset: u32,
    size: u32,
    /// RES: `[next_index, time]`; SRSC: `[type, id, group]`; GRF: `[aligned_size, real_size, flags]`.
    extra: [u32; 3],
}

/// A table archive's reader for the moves: its header and bodies, and its records.
type ParseTable = fn(&[u8]) -> Option<(Vec<u8>, Vec<Rec>)>;

/// The format of a table archive.
struct Table {
    /// Header and bodies, and the records, or `None` when the input is not such a file.
    parse: ParseTable,
    /// The file: `head` with its header fields fixed, the table after it.
    write: fn(&[u8], &[Rec]) -> Option<Vec<u8>>,
    /// Most records the header can count.
    max_records: usize,
    /// GRF: the sizes and flags in `extra` belong to the body (copied with it).
    body_extra: bool,
    /// The `k`-th variant of a record flooded on one body (a distinct name or id).
    variant: fn(&mut Rec, usize),
}

/// A name of the same byte sum (so the same RES hash slot): one byte raised, another lowered, within the
/// name's text before any NUL.
fn same_sum(name: &mut [u8], k: usize) {
    let len = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    if len < 2 {
        return;
    }
    let up = k % len;
    let down = (up + 1 + (k / len) % (len - 1)) % len;
    name[up] = name[up].wrapping_add(1 + (k / (len * len)) as u8 % 3);
    name[down] = name[down].wrapping_sub(1 + (k / (len * len)) as u8 % 3);
}

fn rename(r: &mut Rec, k: usize) {
    same_sum(&mut r.name, k);
}

/// One table move; `extra_move` adds the format's own.
fn table_move(
    t: &Table,
    data: &[u8],
    rng: &mut Rng,
    max_size: usize,
    extra_move: fn(&mut [Rec], &mut Rng) -> bool,
) -> Option<Vec<u8>> {
    let (head, mut recs) = (t.parse)(data)?;
    let n = recs.len();
    if n == 0 {
        return None;
    }
    let share = |dst: &mut Rec, src: &Rec| {
        dst.offset = src.offset;
        dst.size = src.size;
        if t.body_extra {
            dst.extra = src.extra;
        }
    };
    let (i, j) = (rng.below(n), rng.below(n));
    match rng.below(7) {
        0 if n < t.max_records => {
            let copy = recs[j].clone();
            recs.insert(i, copy);
        }
        1 => {
            let src = recs[j].clone();
            share(&mut recs[i], &src);
        }
        2 => {
            // Overlap: start inside another's body, or run past its end.
            let src = recs[j].clone();
            share(&mut recs[i], &src);
            let k = 1 + rng.below(src.size.max(1) as usize) as u32;
            if rng.below(2) == 0 {
                recs[i].offset = src.offset.wrapping_add(k);
                recs[i].size = src.size.saturating_sub(k);
            } else {
                recs[i].size = src.size.saturating_add(k);
            }
        }
        3 => {
            // A flood of records on one body.
            let room = t.max_records.saturating_sub(n);
            let per = 48 + recs[j].name.len();
            let fit = max_size.saturating_sub(data.len()) / per;
            let count = (2 + rng.below(255)).min(room).min(fit);
            let base = recs[j].clone();
            for k in 0..count {
                let mut r = base.clone();
                (t.variant)(&mut r, k + 1);
                recs.push(r);
            }
            if count == 0 {
                return None;
            }
        }
        4 => {
            let r = recs.remove(i);
            recs.push(r);
        }
        5 => recs.swap(i, j),
        _ => {
            if !extra_move(&mut recs, rng) {
                return None;
            }
        }
    }
    (t.write)(&head, &recs)
}

fn no_move(_: &mut [Rec], _: &mut Rng) -> bool {
    false
}

// RES: magic, count, table offset, names length; records of next_index, size, offset, time, name length,
// name offset; the names after the table.

const RES: Table = Table {
    parse: |b| {
        if b.get(..4)? != relic::evil_islands::res::types::MAGIC {
            return None;
        }
        let (count, table, names_len) = (u32_at(b, 4)? as usize, u32_at(b, 8)? as usize, u32_at(b, 12)? as usize);
        let names_at = table.checked_add(count.checked_mul(22)?)?;
        let names = b.get(names_at..names_at.checked_add(names_len)?)?;
        let head = b.get(..table)?.to_vec();
        if head.len() < 16 {
            return None;
        }
        let mut recs = Vec::with_capacity(count);
        for k in 0..count {
            let at = table + 22 * k;
            let (len, name_at) = (usize::from(u16_at(b, at + 16)?), u32_at(b, at + 18)? as usize);
            recs.push(Rec {
                name: names.get(name_at..name_at.checked_add(len)?)?.to_vec(),
                offset: u32_at(b, at + 8)?,
                size: u32_at(b, at + 4)?,
                extra: [u32_at(b, at)?, u32_at(b, at + 12)?, 0],
            });
        }
        Some((head, recs))
    },
    write: |head, recs| {
        let mut out = head.to_vec();
        let names: usize = recs.iter().map(|r| r.name.len()).sum();
        out[4..8].copy_from_slice(&u32::try_from(recs.len()).ok()?.to_le_bytes());
        out[8..12].copy_from_slice(&u32::try_from(head.len()).ok()?.to_le_bytes());
        out[12..16].copy_from_slice(&u32::try_from(names).ok()?.to_le_bytes());
        let mut name_at = 0u32;
        for r in recs {
            for v in [r.extra[0], r.size, r.offset, r.extra[1]] {
                out.extend(v.to_le_bytes());
            }
            out.extend(u16::try_from(r.name.len()).ok()?.to_le_bytes());
            out.extend(name_at.to_le_bytes());
            name_at += r.name.len() as u32;
        }
        recs.iter().for_each(|r| out.extend(&r.name));
        Some(out)
    },
    max_records: 1 << 20,
    body_extra: false,
    variant: rename,
};

/// RES moves on the hash chains: a slot looping on itself, a `next_index` to another record (or past the
/// table), a name made to hash to another's slot (same byte sum, or the same name in another case).
fn res_chains(recs: &mut [Rec], rng: &mut Rng) -> bool {
    let n = recs.len();
    let (i, j) = (rng.below(n), rng.below(n));
    match rng.below(5) {
        0 => recs[i].extra[0] = i as u32,
        1 => recs[i].extra[0] = j as u32,
        2 => recs[i].extra[0] = [u32::MAX, n as u32, i32::MAX as u32][rng.below(3)],
        3 => {
            let mut name = recs[j].name.clone();
            same_sum(&mut name, rng.below(1000));
            recs[i].name = name;
        }
        _ => {
            let name = recs[j].name.iter().map(|b| if rng.below(2) == 0 { b.to_ascii_uppercase() } else { *b });
            recs[i].name = name.collect();
        }
    }
    true
}

/// `ei_res`: a table move or a hash-chain move.
pub fn res(data: &[u8], rng: &mut Rng, max_size: usize) -> Option<Vec<u8>> {
    table_move(&RES, data, rng, max_size, res_chains)
}

// FTG: magic, directory offset, count; 36-byte entries of a 28-byte name field, offset, size.

const FTG: Table = Table {
    parse: |b| {
        let (dir, count) = (u32_at(b, 4)? as usize, u32_at(b, 8)? as usize);
        let head = b.get(..dir)?.to_vec();
        if head.len() < 12 || !(head.starts_with(b"BOTG") || head.starts_with(b"FTG\0")) {
            return None;
        }
        let mut recs = Vec::with_capacity(count.min(1 << 16));
        for k in 0..count {
            let at = dir.checked_add(36usize.checked_mul(k)?)?;
            recs.push(Rec {
                name: b.get(at..at + 28)?.to_vec(),
                offset: u32_at(b, at + 28)?,
                size: u32_at(b, at + 32)?,
                extra: [0; 3],
            });
        }
        Some((head, recs))
    },
    write: |head, recs| {
        let mut out = head.to_vec();
        out[4..8].copy_from_slice(&u32::try_from(head.len()).ok()?.to_le_bytes());
        out[8..12].copy_from_slice(&u32::try_from(recs.len()).ok()?.to_le_bytes());
        for r in recs {
            out.extend(&r.name);
            out.extend(r.offset.to_le_bytes());
            out.extend(r.size.to_le_bytes());
        }
        Some(out)
    },
    max_records: 1 << 20,
    body_extra: false,
    variant: rename,
};

/// `dr_ftg`: a table move.
pub fn ftg(data: &[u8], rng: &mut Rng, max_size: usize) -> Option<Vec<u8>> {
    table_move(&FTG, data, rng, max_size, no_move)
}

// SRSC: magic, version, directory offset, u16 count; 14-byte entries of type, id, group, offset, size.

const SRSC: Table = Table {
    parse: |b| {
        if !b.starts_with(b"SRSC") {
            return None;
        }
        let (dir, count) = (u32_at(b, 6)? as usize, usize::from(u16_at(b, 10)?));
        let head = b.get(..dir)?.to_vec();
        if head.len() < 12 {
            return None;
        }
        let mut recs = Vec::with_capacity(count);
        for k in 0..count {
            let at = dir + 14 * k;
            let [t, id, g] = [0, 2, 4].map(|d| u16_at(b, at + d).map(u32::from));
            recs.push(Rec {
                name: Vec::new(),
                offset: u32_at(b, at + 6)?,
                size: u32_at(b, at + 10)?,
                extra: [t?, id?, g?],
            });
        }
        Some((head, recs))
    },
    write: |head, recs| {
        let mut out = head.to_vec();
        out[6..10].copy_from_slice(&u32::try_from(head.len()).ok()?.to_le_bytes());
        out[10..12].copy_from_slice(&u16::try_from(recs.len()).ok()?.to_le_bytes());
        for r in recs {
            for v in r.extra {
                out.extend((v as u16).to_le_bytes());
            }
            out.extend(r.offset.to_le_bytes());
            out.extend(r.size.to_le_bytes());
        }
        Some(out)
    },
    max_records: 0xFFFF,
    body_extra: false,
    // Same type, a new id: another texture (or model, sound…) on the same body.
    variant: |r, k| r.extra[1] = (r.extra[1] + k as u32) & 0xFFFF,
};

/// SRSC: a record made a texture (0x0040) or a model part's type from another record, keeping its body.
fn srsc_types(recs: &mut [Rec], rng: &mut Rng) -> bool {
    let (i, j) = (rng.below(recs.len()), rng.below(recs.len()));
    recs[i].extra[0] = if rng.below(2) == 0 { 0x0040 } else { recs[j].extra[0] };
    true
}

/// `drakan_srsc` and `drakan_scene`: a table move, or a record's type changed.
pub fn srsc(data: &[u8], rng: &mut Rng, max_size: usize) -> Option<Vec<u8>> {
    table_move(&SRSC, data, rng, max_size, srsc_types)
}

// GRF 0x200 in the `ro_grf_v2` target's parts form: u16 count, u16 table length, the inflated table (NUL-ended
// name, compressed, aligned and real sizes, u8 flags, u32 offset from the data's start), the data.

const GRF: Table = Table {
    parse: |b| {
        if b.starts_with(relic::ragnarok::grf::types::SIGNATURE) {
            return None;
        }
        let (count, len) = (usize::from(u16_at(b, 0)?), usize::from(u16_at(b, 2)?));
        let table = b.get(4..4 + len)?;
        let mut recs = Vec::with_capacity(count);
        let mut at = 0;
        for _ in 0..count {
            let end = at + table.get(at..)?.iter().position(|&c| c == 0)?;
            let f = |d: usize| u32_at(table, end + 1 + d);
            let flags = u32::from(*table.get(end + 13)?);
            recs.push(Rec { name: table[at..end].to_vec(), size: f(0)?, extra: [f(4)?, f(8)?, flags], offset: f(13)? });
            at = end + 18;
        }
        Some((b[4 + len..].to_vec(), recs))
    },
    write: |body, recs| {
        let mut table = Vec::new();
        for r in recs {
            table.extend(&r.name);
            table.push(0);
            for v in [r.size, r.extra[0], r.extra[1]] {
                table.extend(v.to_le_bytes());
            }
            table.push(r.extra[2] as u8);
            table.extend(r.offset.to_le_bytes());
        }
        let mut out = u16::try_from(recs.len()).ok()?.to_le_bytes().to_vec();
        out.extend(u16::try_from(table.len()).ok()?.to_le_bytes());
        out.extend(table);
        out.extend(body);
        Some(out)
    },
    max_records: 0xFFFF,
    body_extra: true,
    variant: rename,
};

/// `ro_grf_v2` (parts form): a table move.
pub fn grf(data: &[u8], rng: &mut Rng, max_size: usize) -> Option<Vec<u8>> {
    table_move(&GRF, data, rng, max_size, no_move)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table format writes back the input it parsed, unchanged, and the moves give what they are for
    /// (valid tables, self-looping RES slots, LNK files relic reads).
    #[test]
    fn tables_round_trip() {
        let ftg = {
            let mut out = b"BOTG".to_vec();
            out.extend(16u32.to_le_bytes());
            out.extend(1u32.to_le_bytes());
            out.extend(b"DATA");
            let mut name = [0u8; 28];
            name[..5].copy_from_slice(b"A.SPR");
            out.extend(name);
            out.extend(12u32.to_le_bytes());
            out.extend(4u32.to_le_bytes());
            out
        };
        let (head, recs) = (FTG.parse)(&ftg).unwrap();
        assert_eq!((FTG.write)(&head, &recs).unwrap(), ftg);
        let srsc = relic::drakan::srsc::write_packed(
            0x100,
            &[relic::drakan::srsc::NewRecord { record_type: 0x40, id: 1, group: 0, body: vec![1, 2, 3] }],
        )
        .unwrap();
        let (head, recs) = (SRSC.parse)(&srsc).unwrap();
        assert_eq!((SRSC.write)(&head, &recs).unwrap(), srsc);
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            if let Some(out) = super::srsc(&srsc, &mut rng, 1 << 20) {
                assert!((SRSC.parse)(&out).is_some());
            }
        }
        // RES: the table writes back; the hash moves give self-looping slots and shared ranges.
        let res = {
            let mut out = relic::evil_islands::res::types::MAGIC.to_vec();
            for v in [2u32, 20, 3] {
                out.extend(v.to_le_bytes());
            }
            out.extend(b"DATA");
            for (next, name_at, len) in [(-1i32, 0u32, 1u16), (-1, 1, 2)] {
                for v in [next as u32, 4, 16, 0] {
                    out.extend(v.to_le_bytes());
                }
                out.extend(len.to_le_bytes());
                out.extend(name_at.to_le_bytes());
            }
            out.extend(b"abc");
            out
        };
        let (head, recs) = (RES.parse)(&res).unwrap();
        assert_eq!((RES.write)(&head, &recs).unwrap(), res);
        let (mut looped, mut valid) = (false, 0);
        for _ in 0..500 {
            let Some(out) = super::res(&res, &mut rng, 1 << 20) else { continue };
            let (_, recs) = (RES.parse)(&out).expect("the table stays valid");
            valid += usize::from(relic::evil_islands::res::parse(&out).is_ok());
            looped |= recs.iter().enumerate().any(|(i, r)| r.extra[0] == i as u32);
        }
        assert!(looped && valid > 100, "{looped} {valid}");
        // GRF parts: the table writes back.
        let mut grf = vec![1, 0, 23, 0];
        grf.extend(b"a.txt\0");
        for v in [3u32, 8, 3] {
            grf.extend(v.to_le_bytes());
        }
        grf.push(1);
        grf.extend(0u32.to_le_bytes());
        grf.extend([0u8; 8]);
        let (body, recs) = (GRF.parse)(&grf).unwrap();
        assert_eq!((GRF.write)(&body, &recs).unwrap(), grf);
        // LNK: the moves give files relic reads.
        let chain = lnk::write(&lnk::Lnk {
            links: vec![
                Link { name: "a".into(), parent: Some("b".into()), ..Link::default() },
                Link { name: "b".into(), ..Link::default() },
            ],
            ..Default::default()
        })
        .unwrap();
        for _ in 0..200 {
            if let Some(out) = super::lnk(&chain, &mut rng, 1 << 16) {
                assert!(lnk::parse(&out).is_ok());
            }
        }
        let mut name = b"abcdef".to_vec();
        let sum: u32 = name.iter().map(|&b| u32::from(b)).sum();
        same_sum(&mut name, 17);
        assert_eq!(name.iter().map(|&b| u32::from(b)).sum::<u32>(), sum);
    }
}

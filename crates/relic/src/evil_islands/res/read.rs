//! RES reader: header, file table and name table, every range checked against the file (spec "Res",
//! docs/formats/evil-islands.md#res-name-hash).

use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Parses a RES archive, borrowing `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Res<'_>> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected 3C E2 9C 01, found {}", hex4(magic))));
    }
    let header = ResHeader {
        files_count: r.u32("files_count")?,
        filetable_offset: r.u32("filetable_offset")?,
        nametable_size: r.u32("nametable_size")?,
    };
    let mut table = r
        .sub(
            u64::from(header.filetable_offset),
            (bytes.len() as u64).saturating_sub(u64::from(header.filetable_offset)),
            "filetable_offset",
        )
        .map_err(|e| e.at_offset(8))?;
    let count = table.count(u64::from(header.files_count), RECORD_SIZE, "files_count")?;
    let mut records = Vec::with_capacity(count);
    for i in 0..count {
        records.push(read_record(&mut table).map_err(|e| e.within(format_args!("file_table[{i}]")))?);
    }
    let names = r
        .sub(header.nametable_offset(), u64::from(header.nametable_size), "nametable_size")
        .map_err(|e| e.at_offset(12))?;
    for (i, rec) in records.iter().enumerate() {
        let at = u64::from(header.filetable_offset) + (i * RECORD_SIZE) as u64;
        check_record(&r, &names, rec, count, at).map_err(|e| e.within(format_args!("file_table[{i}]")))?;
    }
    Ok(Res { header, records, bytes })
}

fn read_record(r: &mut Reader<'_>) -> Result<ResRecord> {
    Ok(ResRecord {
        next_index: r.i32("next_index")?,
        size: r.u32("file_size")?,
        offset: r.u32("file_offset")?,
        modified: r.u32("last_change")?,
        name_len: r.u16("name_len")?,
        name_offset: r.u32("name_offset")?,
    })
}

fn check_record(file: &Reader<'_>, names: &Reader<'_>, rec: &ResRecord, count: usize, at: u64) -> Result<()> {
    if rec.next_index != -1 && !(0..count as i64).contains(&i64::from(rec.next_index)) {
        return Err(Error::invalid(
            FORMAT_ID,
            "next_index",
            at,
            format!("{} is neither −1 nor an index below {count}", rec.next_index),
        ));
    }
    // The offending field is reported at the record's position (the ranges themselves lie elsewhere).
    let at_field = |field: &str, e: Error| match e {
        Error::InvalidData { message, .. } => Error::invalid(FORMAT_ID, field, at, message),
        other => other,
    };
    names
        .sub(u64::from(rec.name_offset), u64::from(rec.name_len), "name_offset")
        .map_err(|e| at_field("name_offset", e))?;
    file.sub(u64::from(rec.offset), u64::from(rec.size), "file_offset").map_err(|e| at_field("file_offset", e))?;
    Ok(())
}

fn hex4(b: [u8; 4]) -> String {
    format!("{:02X} {:02X} {:02X} {:02X}", b[0], b[1], b[2], b[3])
}

/// The game's name hash: the sum of the cp1251 name bytes as **signed** chars, A–Z lowered, modulo the
/// entry count (docs/formats/evil-islands.md#res-name-hash). The spec is silent on a negative sum (names with bytes ≥ 0x80); relic
/// takes the Euclidean remainder, which keeps every slot in 0..count.
pub fn name_hash(name: &[u8], count: usize) -> usize {
    let sum: i64 = name.iter().map(|&b| i64::from(b.to_ascii_lowercase() as i8)).sum();
    sum.rem_euclid(count.max(1) as i64) as usize
}

impl<'a> Res<'a> {
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The raw name of record `i` (checked by `parse`).
    pub fn name(&self, i: usize) -> &'a [u8] {
        let Some(rec) = self.records.get(i) else { return &[] };
        let start = self.header.nametable_offset() + u64::from(rec.name_offset);
        slice(self.bytes, start, u64::from(rec.name_len))
    }

    /// The data of record `i` (checked by `parse`).
    pub fn data(&self, i: usize) -> &'a [u8] {
        let Some(rec) = self.records.get(i) else { return &[] };
        slice(self.bytes, u64::from(rec.offset), u64::from(rec.size))
    }

    /// Looks a name up the way the game does: hash slot, then the `next_index` chain, comparing names
    /// case-insensitively. Chains are followed at most `len` steps, so a cycle cannot hang.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        if self.records.is_empty() {
            return None;
        }
        let mut i = name_hash(name, self.records.len()) as i64;
        for _ in 0..self.records.len() {
            let idx = usize::try_from(i).ok()?;
            if self.name(idx).eq_ignore_ascii_case(name) {
                return Some(idx);
            }
            i = i64::from(self.records.get(idx)?.next_index);
        }
        None
    }

    /// Records that the game cannot reach through the hash chains: those [`Res::find`] does not return
    /// for their own name. Computed for all records at once in O(n) (expected, hashing names), not one
    /// lookup per record: the `next_index` links form a functional graph, which is split into trees
    /// hanging from cycles or chain ends; record `i` lies on the walk from slot `h` when it is an ancestor
    /// of `h` in its tree or on the cycle `h`'s tree hangs from, and its distance is then known in O(1).
    /// Of the records sharing a name (ignoring ASCII case), only the nearest to the name's slot is reached.
    pub fn unreachable(&self) -> Vec<usize> {
        let n = self.len();
        let next: Vec<Option<usize>> =
            self.records.iter().map(|r| usize::try_from(r.next_index).ok().filter(|&j| j < n)).collect();
        // Cycles: each record on one gets its cycle's id, its position and the cycle's length.
        let mut on_cycle: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut cycle_len = Vec::new();
        let mut state = vec![0u8; n]; // 0 new, 1 on the current walk, 2 done
        for start in 0..n {
            let mut path = Vec::new();
            let mut at = Some(start);
            while let Some(i) = at {
                match state[i] {
                    0 => {
                        state[i] = 1;
                        path.push(i);
                        at = next[i];
                    }
                    1 => {
                        let from = path.iter().position(|&p| p == i).unwrap_or(0);
                        let id = cycle_len.len();
                        cycle_len.push(path.len() - from);
                        for (pos, &c) in path[from..].iter().enumerate() {
                            on_cycle[c] = Some((id, pos));
                        }
                        break;
                    }
                    _ => break,
                }
            }
            for i in path {
                state[i] = 2;
            }
        }
        // The trees: a record's tree parent is its `next`, unless it is on a cycle (then it is a root).
        let mut children = vec![Vec::new(); n];
        for i in 0..n {
            if on_cycle[i].is_none() {
                if let Some(j) = next[i] {
                    children[j].push(i);
                }
            }
        }
        let mut tin = vec![0usize; n];
        let mut tout = vec![0usize; n];
        let mut depth = vec![0usize; n];
        let mut root = vec![0usize; n];
        let mut clock = 0;
        for r in (0..n).filter(|&i| on_cycle[i].is_some() || next[i].is_none()) {
            let mut stack = vec![(r, 0usize)];
            tin[r] = clock;
            clock += 1;
            root[r] = r;
            while let Some((v, k)) = stack.pop() {
                if let Some(&c) = children[v].get(k) {
                    stack.push((v, k + 1));
                    tin[c] = clock;
                    clock += 1;
                    depth[c] = depth[v] + 1;
                    root[c] = r;
                    stack.push((c, 0));
                } else {
                    tout[v] = clock;
                }
            }
        }
        // Steps from slot `h` to record `i`, when the walk from `h` reaches it.
        let distance = |h: usize, i: usize| -> Option<usize> {
            if tin[i] <= tin[h] && tout[h] <= tout[i] {
                return Some(depth[h] - depth[i]);
            }
            let (cycle, pos) = on_cycle[i]?;
            let (root_cycle, root_pos) = on_cycle[root[h]]?;
            (cycle == root_cycle).then(|| depth[h] + (pos + cycle_len[cycle] - root_pos) % cycle_len[cycle])
        };
        // Per name (ASCII case folded), the record the lookup returns: the nearest on the walk.
        let mut nearest: std::collections::HashMap<Vec<u8>, (usize, usize)> = std::collections::HashMap::new();
        for i in 0..n {
            let name = self.name(i);
            let Some(d) = distance(name_hash(name, n), i) else { continue };
            let slot = nearest.entry(name.to_ascii_lowercase()).or_insert((d, i));
            if d < slot.0 {
                *slot = (d, i);
            }
        }
        let reached: std::collections::HashSet<usize> = nearest.values().map(|&(_, i)| i).collect();
        (0..n).filter(|i| !reached.contains(i)).collect()
    }
}

fn slice(bytes: &[u8], start: u64, len: u64) -> &[u8] {
    let range =
        usize::try_from(start).ok().zip(usize::try_from(len).ok()).and_then(|(s, l)| Some(s..s.checked_add(l)?));
    range.and_then(|r| bytes.get(r)).unwrap_or(&[])
}

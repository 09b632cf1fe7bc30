//! Records whose bodies meet. The directory is the only map of a file (spec "Basic SRSC format",
//! docs/formats/drakan.md#srsc-directory): nothing stops two entries naming one body, or parts of one. `convert` converts a body
//! that several records of one type name once and gives every record the result (issue 23: 64 texture
//! records over one 8192² stream decode once); bodies that overlap without being the same are counted by
//! `info` and noted by `convert`. Records of no body meet nothing.

use std::collections::HashMap;

use super::types::Srsc;

/// How the records' bodies meet (see the module notes); record indices in directory order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sharing {
    /// Each record whose body (offset, size) is an earlier record's, with the first record that has it.
    pub shared: Vec<(usize, usize)>,
    /// Each record whose body overlaps another's in part without being the same (one such other named).
    pub overlapping: Vec<(usize, usize)>,
    /// Per record: the first earlier record of the same type with the very same body, whose conversion
    /// it takes (a body read as another type is converted as that type).
    converted_as: Vec<Option<usize>>,
}

impl Sharing {
    /// The earlier record whose conversion record `i` takes, if any.
    pub fn converted_as(&self, i: usize) -> Option<usize> {
        self.converted_as.get(i).copied().flatten()
    }
}

/// How the bodies of `srsc`'s records meet: one pass with hash maps, then one sweep in offset order
/// (O(n log n); a quadratic pairwise check would take minutes on 65,535 records).
pub fn sharing(srsc: &Srsc<'_>) -> Sharing {
    let mut converted_as = vec![None; srsc.entries.len()];
    let mut first_of_type: HashMap<(u32, u32, u16), usize> = HashMap::new();
    for (i, e) in srsc.entries.iter().enumerate().filter(|(_, e)| e.size > 0) {
        let same_type = *first_of_type.entry((e.offset, e.size, e.record_type)).or_insert(i);
        if same_type != i {
            if let Some(slot) = converted_as.get_mut(i) {
                *slot = Some(same_type);
            }
        }
    }
    let (shared, overlapping) =
        crate::layout::meeting_ranges(srsc.entries.iter().enumerate().map(|(i, e)| (i, e.offset, e.size)));
    Sharing { converted_as, shared, overlapping }
}

/// What `convert` says about shared and overlapping bodies (see [`sharing`]): one line for each kind,
/// naming the first few records.
pub fn notes(srsc: &Srsc<'_>, s: &Sharing) -> Vec<String> {
    let name = |i: usize| {
        srsc.entries
            .get(i)
            .map_or_else(|| "?".to_string(), |e| format!("0x{:04X} id {} at 0x{:X}", e.record_type, e.id, e.offset))
    };
    // At most this many pairs are named: the line stays one line whatever the file holds.
    const NAMED: usize = 3;
    let list = |pairs: &[(usize, usize)], join: &str| {
        let shown: Vec<String> =
            pairs.iter().take(NAMED).map(|&(i, j)| format!("record {} {join} record {}", name(i), name(j))).collect();
        let more = if pairs.len() > NAMED { ", …" } else { "" };
        format!("{}{more}", shown.join("; "))
    };
    let mut out = Vec::new();
    if !s.shared.is_empty() {
        out.push(format!(
            "{}: {} records have the very body of an earlier record ({}); a body is converted once and each \
             record of its type gets the result",
            super::FORMAT_ID,
            s.shared.len(),
            list(&s.shared, "has the body of")
        ));
    }
    if !s.overlapping.is_empty() {
        out.push(format!(
            "{}: {} records' bodies overlap another's in part ({}); each is converted on its own",
            super::FORMAT_ID,
            s.overlapping.len(),
            list(&s.overlapping, "overlaps")
        ));
    }
    out
}

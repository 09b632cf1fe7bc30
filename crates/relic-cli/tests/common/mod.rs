//! Fixtures the CLI tests share.

/// A RES assembled by hand (spec "Res" tables), with the given names and contents, all in one hash chain.
pub fn handmade_res(entries: &[(&[u8], &[u8])]) -> Vec<u8> {
    let n = entries.len();
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    for (_, content) in entries {
        offsets.push(16 + data.len() as u32);
        data.extend_from_slice(content);
        while data.len() % 16 != 0 {
            data.push(0);
        }
    }
    let table_at = 16 + data.len() as u32;
    let names: Vec<u8> = entries.iter().flat_map(|(n, _)| n.to_vec()).collect();
    let mut out = vec![0x3C, 0xE2, 0x9C, 0x01];
    out.extend((n as u32).to_le_bytes());
    out.extend(table_at.to_le_bytes());
    out.extend((names.len() as u32).to_le_bytes());
    out.extend(&data);
    let mut name_at = 0u32;
    for (i, (name, content)) in entries.iter().enumerate() {
        let next: i32 = if i + 1 < n { i as i32 + 1 } else { -1 };
        out.extend(next.to_le_bytes());
        out.extend((content.len() as u32).to_le_bytes());
        out.extend(offsets[i].to_le_bytes());
        out.extend(1_000_000_000u32.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(name_at.to_le_bytes());
        name_at += name.len() as u32;
    }
    out.extend(names);
    out
}

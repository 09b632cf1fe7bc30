//! SRSC files written by hand from the spec's tables ("Basic SRSC format", "Data formatting"), independent of
//! relic's writer, for the Drakan tests.

/// An SRSC file with bodies packed from offset 12 in directory order and the directory last (Drakan's own
/// layout): (type, id, group, body) per record.
pub fn packed(records: &[(u16, u16, u16, &[u8])]) -> Vec<u8> {
    let bodies: usize = records.iter().map(|r| r.3.len()).sum();
    let mut out = b"SRSC".to_vec();
    out.extend(0x0100u16.to_le_bytes());
    out.extend(((12 + bodies) as u32).to_le_bytes());
    out.extend((records.len() as u16).to_le_bytes());
    let mut offsets = Vec::new();
    for r in records {
        offsets.push(out.len() as u32);
        out.extend(r.3);
    }
    for (r, off) in records.iter().zip(offsets) {
        out.extend(r.0.to_le_bytes());
        out.extend(r.1.to_le_bytes());
        out.extend(r.2.to_le_bytes());
        out.extend(off.to_le_bytes());
        out.extend((r.3.len() as u32).to_le_bytes());
    }
    out
}

/// An SRSC string: u16 length, the bytes, a zero pad byte for odd lengths (counted in the length).
pub fn string(text: &str) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    if b.len() % 2 == 1 {
        b.push(0);
    }
    let mut out = (b.len() as u16).to_le_bytes().to_vec();
    out.extend(b);
    out
}

//! SRSC files written by hand from the spec's tables ("Basic SRSC format", "Data formatting"), independent of
//! relic's writer, for the Drakan tests.
#![allow(dead_code)] // each test crate uses some of these

/// A little-endian byte builder for record bodies.
#[derive(Default)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    pub fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    pub fn u16(mut self, v: u16) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    pub fn u32(mut self, v: u32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    pub fn i32(mut self, v: i32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    pub fn f32(mut self, v: f32) -> Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    pub fn f32s(mut self, v: &[f32]) -> Self {
        for f in v {
            self.0.extend(f.to_le_bytes());
        }
        self
    }
    /// `ref`: u16 id, u16 database index.
    pub fn r(self, id: u16, db: u16) -> Self {
        self.u16(id).u16(db)
    }
    /// An SRSC string (see [`string`]).
    pub fn str(mut self, text: &str) -> Self {
        self.0.extend(string(text));
        self
    }
    pub fn bytes(mut self, b: &[u8]) -> Self {
        self.0.extend(b);
        self
    }
    pub fn done(self) -> Vec<u8> {
        self.0
    }
}

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

/// Texture 0x0040: the 54-byte header (docs/formats/drakan.md#texture-header) with no alpha, no colour key, no references and
/// compression level 0, then the stored pixels (bottom row first).
pub fn texture(width: u32, height: u32, bpp: u16, pixels: &[u8]) -> Vec<u8> {
    let b = Bytes::default()
        .u32(width)
        .u32(height)
        .u32(width * u32::from(bpp) / 8)
        .u16(bpp)
        .u32(0) // alpha bits
        .u32(0xFFFF_FFFF) // no colour key
        .bytes(&[0; 12]) // mip map, alternate, bump refs
        .bytes(&[0, 0]) // fps, flags
        .u16(0) // mip map number
        .bytes(&[0; 4]) // material ref
        .u32(0) // ref count
        .u32(0) // compression level: stored
        .u32(pixels.len() as u32);
    assert_eq!(b.0.len(), 54);
    b.bytes(pixels).done()
}

/// An SRSC file (Drakan's version) whose directory names its bodies by hand: `data` at offset 12, then the
/// directory of (type, id, group, offset, size), offsets counted from the file's start, so records may
/// share one body or overlap.
pub fn over(data: &[u8], entries: &[(u16, u16, u16, u32, u32)]) -> Vec<u8> {
    let mut out = b"SRSC".to_vec();
    out.extend(0x0100u16.to_le_bytes());
    out.extend(((12 + data.len()) as u32).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend(data);
    for &(record_type, id, group, offset, size) in entries {
        for v in [record_type, id, group] {
            out.extend(v.to_le_bytes());
        }
        out.extend(offset.to_le_bytes());
        out.extend(size.to_le_bytes());
    }
    out
}

/// Character 0x0208 (docs/formats/drakan.md#character layout): a chain of `joints` joints (each the first child of the one
/// before, at the origin with an identity bind pose) with one LOD whose mesh covers `vertices` vertices
/// from 0 and `polygons` polygons from 0; joint j moves vertex j % `vertices` with weight 1. No animations,
/// no channels.
pub fn character(joints: u32, vertices: u32, polygons: u32) -> Vec<u8> {
    let identity12 = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let mut c = Bytes::default()
        .f32s(&[0.0, 0.0, 0.0, 1.0]) // bounding sphere
        .f32s(&identity12) // box
        .u16(1) // LODs: no names after LOD 0
        .u16(joints as u16); // nodes, one per joint
    for j in 0..joints {
        let mut field = [0u8; 32];
        let name = format!("joint{j}");
        field[..name.len()].copy_from_slice(name.as_bytes());
        c = c.bytes(&field).i32(j as i32);
    }
    c = c.u16(joints as u16);
    for j in 0..joints {
        let child = if j + 1 < joints { j as i32 + 1 } else { 0 };
        c = c.f32s(&identity12).i32(0).i32(child).i32(0).u16(1).u32(j % vertices.max(1)).f32(1.0);
    }
    // LOD 0's mesh: distance, usage, node, first vertex, vertex count, first polygon, polygon count.
    c = c.u16(1).f32(0.0).u32(0).u32(0).u32(0).u32(vertices).u32(0).u32(polygons);
    c.u16(0) // animations
        .u16(0) // channels
        .u16(1) // LOD count again (docs/formats/drakan.md#character), then one sphere per LOD
        .bytes(&[0; 16])
        .done()
}

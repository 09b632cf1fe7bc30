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

/// Texture 0x0040: the 54-byte header (CORRECTIONS.md) with no alpha, no colour key, no references and
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

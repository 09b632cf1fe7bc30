//! CAM types: the file as it is (records of raw fields), and its JSON document, where the time field is
//! read as a u32 (the default) or an f32 — both keep its 32 bits exactly.

use serde::{Deserialize, Serialize};

use crate::codec::float::F32;

/// Every record is 36 bytes (docs/formats/evil-islands.md#cam).
pub const RECORD_SIZE: usize = 36;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vec3 {
    pub x: F32,
    pub y: F32,
    pub z: F32,
}

/// A rotation quaternion, stored w, x, y, z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quat {
    pub w: F32,
    pub x: F32,
    pub y: F32,
    pub z: F32,
}

/// One camera key. `T` is how the time field is read: `u32` as stored, or [`F32`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record<T> {
    /// Offset 0x00: presumably the key's time (spec: "unkn0"; u32 or f32 is unsettled).
    pub time: T,
    /// Offset 0x04: unknown (spec: "unkn1"; "presumably … step in the sequence").
    pub unk_0x04: u32,
    pub position: Vec3,
    pub rotation: Quat,
}

impl Record<u32> {
    /// The same record with the time field's bits read as an f32.
    pub fn with_f32_time(self) -> Record<F32> {
        Record { time: F32(self.time), unk_0x04: self.unk_0x04, position: self.position, rotation: self.rotation }
    }
}

impl Record<F32> {
    /// The same record with the time field as its raw bits.
    pub fn with_u32_time(self) -> Record<u32> {
        Record { time: self.time.bits(), unk_0x04: self.unk_0x04, position: self.position, rotation: self.rotation }
    }
}

/// A CAM file: records only (no header, no magic). Read with [`Cam::read`], written with [`Cam::to_bytes`]; its
/// JSON (`relic convert --to json`) is `serde_json::to_value(CamDocument::new(&cam, TimeReading::U32))`.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::evil_islands::cam::Cam;
///
/// // One 36-byte record: time 100, the unknown u32 1, position (1, 2, 3), rotation w = 1.
/// let mut bytes = Vec::new();
/// for word in [100u32, 1] {
///     bytes.extend_from_slice(&word.to_le_bytes());
/// }
/// for float in [1.0f32, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0] {
///     bytes.extend_from_slice(&float.to_le_bytes());
/// }
/// let cam = Cam::read(&bytes)?;
/// assert_eq!(cam.records.len(), 1);
/// assert_eq!((cam.records[0].time, cam.records[0].unk_0x04), (100, 1));
/// assert_eq!(cam.records[0].position.y.get(), 2.0);
/// assert_eq!(cam.records[0].rotation.w.get(), 1.0);
/// assert_eq!(cam.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cam {
    pub records: Vec<Record<u32>>,
}

/// How the time field is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeReading {
    /// A u32 (game ticks, presumably): the default.
    #[default]
    U32,
    /// The same 32 bits as an f32 (seconds, presumably).
    F32,
}

/// The records, tagged with the time reading: `"time_reading": "u32", "records": [...]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "time_reading", content = "records", rename_all = "lowercase")]
pub enum Records {
    U32(Vec<Record<u32>>),
    F32(Vec<Record<F32>>),
}

/// The JSON document of a CAM file. Either reading packs back to the same bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CamDocument {
    pub format: String,
    #[serde(flatten)]
    pub records: Records,
}

impl CamDocument {
    pub fn new(cam: &Cam, reading: TimeReading) -> Self {
        let records = match reading {
            TimeReading::U32 => Records::U32(cam.records.clone()),
            TimeReading::F32 => Records::F32(cam.records.iter().map(|r| r.with_f32_time()).collect()),
        };
        CamDocument { format: super::FORMAT_ID.into(), records }
    }

    pub fn to_cam(&self) -> Cam {
        let records = match &self.records {
            Records::U32(r) => r.clone(),
            Records::F32(r) => r.iter().map(|r| r.with_u32_time()).collect(),
        };
        Cam { records }
    }
}

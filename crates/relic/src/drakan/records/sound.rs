//! Sound, record 0x0302 (spec "Sound (0x0301 - 0x0302)" and "Audio format", with docs/formats/drakan.md#sound): a name,
//! playback settings, and raw PCM (interleaved, left first; 8-bit unsigned, 16-bit signed), zlib-compressed
//! when `compression_level > 0`. The u32 compressed size is present only then; stored audio is
//! `decompressed_size` bytes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::common::{body_reader, hex_is_empty, read_f32, rest, FlagNames, Flags, Name, Put, F32};
use super::FORMAT_ID;
use crate::asset::Sound;
use crate::bytes::{Base64, Hex};
use crate::codec::zlib;
use crate::error::{Error, Result};

/// Names of the sound flag bits.
pub struct SoundFlags;
impl FlagNames for SoundFlags {
    const NAMES: &'static [(u32, &'static str)] = &[(0x04, "flush_after_playing"), (0x08, "looping")];
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SoundRecord {
    pub name: Name,
    pub flags: Flags<SoundFlags>,
    pub channels: u16,
    pub bits: u16,
    /// Samples per second.
    pub frequency: u32,
    /// Millibels: 0 is full volume, −5000 about silent (amplitude factor 10^(volume / 2000)).
    pub volume: i32,
    /// 0 to 30.
    pub dropoff: F32,
    /// 0 to 10.
    pub priority: u32,
    pub decompressed_size: u32,
    /// 0 = stored, 1–9 = zlib level.
    pub compression_level: u32,
    /// The audio as stored: a zlib stream when compressed (its u32 size precedes it), else PCM.
    pub data: Base64,
    /// Bytes after the audio (none in a well-formed body).
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
    /// File offset of `data`, for errors while decoding it.
    #[serde(skip)]
    pub data_offset: u64,
}

pub fn parse(body: &[u8], base: u64) -> Result<SoundRecord> {
    let mut r = body_reader(body, base);
    let mut s = SoundRecord {
        name: Name::read(&mut r, "sound.name")?,
        flags: Flags::new(r.u32("sound.flags")?),
        channels: r.u16("sound.channels")?,
        bits: r.u16("sound.bits")?,
        frequency: r.u32("sound.frequency")?,
        volume: r.i32("sound.volume")?,
        dropoff: read_f32(&mut r, "sound.dropoff")?,
        priority: r.u32("sound.priority")?,
        decompressed_size: r.u32("sound.decompressed_size")?,
        compression_level: r.u32("sound.compression_level")?,
        ..SoundRecord::default()
    };
    let size = if s.compression_level > 0 { r.u32("sound.compressed_size")? } else { s.decompressed_size };
    s.data_offset = r.offset();
    let size = r.count(u64::from(size), 1, "sound.data")?;
    s.data = Base64(r.bytes(size, "sound.data")?.to_vec());
    s.trailing = rest(&mut r);
    Ok(s)
}

pub fn write(s: &SoundRecord) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + s.data.0.len() + s.trailing.0.len());
    s.name.write(&mut out);
    out.put_u32(s.flags.value);
    out.put_u16(s.channels);
    out.put_u16(s.bits);
    out.put_u32(s.frequency);
    out.put_i32(s.volume);
    out.put_f32(s.dropoff);
    out.put_u32(s.priority);
    out.put_u32(s.decompressed_size);
    out.put_u32(s.compression_level);
    if s.compression_level > 0 {
        out.put_u32(s.data.0.len() as u32);
    }
    out.extend_from_slice(&s.data.0);
    out.extend_from_slice(&s.trailing.0);
    out
}

impl SoundRecord {
    /// The PCM bytes: inflated to `decompressed_size` when compressed, else as stored.
    pub fn pcm(&self) -> Result<Cow<'_, [u8]>> {
        if self.compression_level == 0 {
            return Ok(Cow::Borrowed(&self.data.0));
        }
        let at = zlib::At { format: FORMAT_ID, field: "sound.data", offset: self.data_offset };
        zlib::inflate_exact(&self.data.0, u64::from(self.decompressed_size), at).map(Cow::Owned)
    }
}

/// The sound as interleaved PCM for the WAV exporter: 8-bit unsigned or 16-bit signed little-endian, mono
/// or stereo. A partial sample frame at the end (the spec says nothing of one) is dropped.
pub fn to_sound(s: &SoundRecord) -> Result<Sound> {
    if !matches!(s.bits, 8 | 16) {
        return Err(Error::Unsupported(format!("{}-bit Drakan sound (known: 8, 16)", s.bits)));
    }
    if !matches!(s.channels, 1 | 2) {
        return Err(Error::Unsupported(format!("Drakan sound with {} channels (known: 1, 2)", s.channels)));
    }
    if s.frequency == 0 {
        return Err(Error::invalid(FORMAT_ID, "sound.frequency", s.data_offset, "sample rate 0"));
    }
    let mut data = s.pcm()?.into_owned();
    let frame = usize::from(s.channels) * usize::from(s.bits / 8);
    data.truncate(data.len() - data.len() % frame);
    Ok(Sound { channels: s.channels, sample_rate: s.frequency, bits_per_sample: s.bits, data })
}

/// Samples (interleaved, scaled to the 16-bit range) as the record stores them: `bits` (8-bit unsigned, or
/// 16-bit signed little-endian) and `channels`, from `from_channels` channels (mono is copied to both
/// channels of a stereo sound, stereo mixed to mono by the mean). 8-bit samples keep the top 8 bits.
pub fn pcm_from_samples(bits: u16, channels: u16, from_channels: u16, samples: &[i32]) -> Result<Vec<u8>> {
    if !matches!(bits, 8 | 16) || !matches!(channels, 1 | 2) {
        return Err(Error::Unsupported(format!(
            "relic cannot encode {bits}-bit sounds with {channels} channels (known: 8 or 16 bits, 1 or 2 channels)"
        )));
    }
    let frames: Vec<i32> = match (from_channels, channels) {
        (a, b) if a == b => samples.to_vec(),
        (1, 2) => samples.iter().flat_map(|&v| [v, v]).collect(),
        (2, 1) => samples.chunks_exact(2).map(|p| (p[0] + p[1]).div_euclid(2)).collect(),
        (a, b) => {
            return Err(Error::Refused(format!("a sound with {a} channels cannot be stored with {b} (1 or 2 only)")))
        }
    };
    let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX));
    Ok(match bits {
        8 => frames.iter().map(|&v| ((clamp(v) >> 8) + 128) as u8).collect(),
        _ => frames.iter().flat_map(|&v| (clamp(v) as i16).to_le_bytes()).collect(),
    })
}

/// The record with its audio replaced by `samples` (see [`pcm_from_samples`]) at `rate` samples per second:
/// stored in its own bits and channels, compressed at its own level, `decompressed_size` and `frequency`
/// updated. Returns notes on what changed besides the samples.
pub fn with_samples(
    s: &SoundRecord,
    from_channels: u16,
    rate: u32,
    samples: &[i32],
) -> Result<(SoundRecord, Vec<String>)> {
    let pcm = pcm_from_samples(s.bits, s.channels, from_channels, samples)?;
    let mut notes = Vec::new();
    match (from_channels, s.channels) {
        (1, 2) => notes.push("mono audio copied to both channels of the stereo record".to_string()),
        (2, 1) => notes.push("stereo audio mixed to the mono record".to_string()),
        _ => {}
    }
    let mut out = s.clone();
    if rate != s.frequency {
        notes.push(format!("it plays at {rate} samples per second now (was {})", s.frequency));
        out.frequency = rate;
    }
    out.decompressed_size = u32::try_from(pcm.len())
        .map_err(|_| Error::Refused(format!("{} bytes of audio do not fit the record's u32 size", pcm.len())))?;
    out.data = Base64(if s.compression_level > 0 { zlib::compress(&pcm, s.compression_level) } else { pcm });
    Ok((out, notes))
}

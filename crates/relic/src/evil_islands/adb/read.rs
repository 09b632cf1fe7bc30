//! ADB reader (spec "Adb"): a 44-byte header and 88-byte animation records; bytes after the last record
//! are kept.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::float::F32;
use crate::codec::text::{decode, CP1251};
use crate::error::Result;
use crate::reader::Reader;

/// Parses an ADB file.
pub fn parse(bytes: &[u8]) -> Result<Adb> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected `ADB\\0` (41 44 42 00), found {magic:02X?}")));
    }
    let count = r.u32("animations_count")?;
    let (unit_name, unit_name_tail) = fixed_name(&mut r, UNIT_NAME_SIZE, "unit_name")?;
    let min_height = f32(&mut r, "min_height")?;
    let mid_height = f32(&mut r, "mid_height")?;
    let max_height = f32(&mut r, "max_height")?;
    let n = r.count(u64::from(count), RECORD_SIZE, "animations_count").map_err(|e| e.at_offset(4))?;
    let mut animations = Vec::with_capacity(n);
    for i in 0..n {
        animations.push(read_animation(&mut r).map_err(|e| e.within(format_args!("animations[{i}]")))?);
    }
    let rest = r.bytes(r.remaining(), "trailing")?;
    let trailing = (!rest.is_empty()).then(|| Base64(rest.to_vec()));
    Ok(Adb { unit_name, unit_name_tail, min_height, mid_height, max_height, animations, trailing })
}

fn f32(r: &mut Reader<'_>, field: &str) -> Result<F32> {
    r.array::<4>(field).map(F32::from_le_bytes)
}

/// A fixed-size cp1251 field: the text before the first NUL, and the bytes from the NUL on when any of
/// them is not zero.
fn fixed_name(r: &mut Reader<'_>, size: usize, field: &str) -> Result<(String, Option<Base64>)> {
    let raw = r.bytes(size, field)?;
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    let (text, tail) = raw.split_at(end);
    Ok((decode(CP1251, text), tail.iter().any(|&b| b != 0).then(|| Base64(tail.to_vec()))))
}

fn read_animation(r: &mut Reader<'_>) -> Result<Animation> {
    let (name, name_tail) = fixed_name(r, ANIMATION_NAME_SIZE, "name")?;
    let number = r.u32("number")?;
    let additionals = Additionals::unpack(r.u64("additionals")?);
    let action_probability = r.u32("action_probability")?;
    let animation_length = r.u32("animation_length")?;
    let movement_speed = f32(r, "movement_speed")?;
    let mut frames = [0u32; 12];
    for (slot, field) in frames.iter_mut().zip(FRAME_FIELDS) {
        *slot = r.u32(field)?;
    }
    let [start_show_hide1, start_show_hide2, start_step_sound1, start_step_sound2, start_step_sound3, start_step_sound4, start_hit_frame, start_special_sound, spec_sound_id1, spec_sound_id2, spec_sound_id3, spec_sound_id4] =
        frames;
    Ok(Animation {
        name,
        name_tail,
        number,
        additionals,
        action_probability,
        animation_length,
        movement_speed,
        start_show_hide1,
        start_show_hide2,
        start_step_sound1,
        start_step_sound2,
        start_step_sound3,
        start_step_sound4,
        start_hit_frame,
        start_special_sound,
        spec_sound_id1,
        spec_sound_id2,
        spec_sound_id3,
        spec_sound_id4,
    })
}

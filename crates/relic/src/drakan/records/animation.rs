//! Character animations (spec "Animation (0x0501 - 0x0503)"): info 0x0501, key frames 0x0502 (a time and a
//! `mat3x4f` each, relative to the parent joint), and the per-node frame lookup 0x0503. Plain data for JSON
//! and byte-exact writing; the glTF conversion comes later.

use serde::{Deserialize, Serialize};

use super::common::{
    body_reader, count_u16, hex_is_empty, list_u16, read_f32, rest, FlagNames, Flags, Mat3x4, Name, Put, F32,
};
use crate::bytes::Hex;
use crate::error::Result;

pub struct AnimationFlags;
impl FlagNames for AnimationFlags {
    const NAMES: &'static [(u32, &'static str)] = &[(0x01, "non_looping")];
}

/// Record 0x0501.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AnimationInfo {
    pub name: Name,
    pub duration: F32,
    pub original_num_frames: u32,
    pub num_frames: u32,
    pub flags: Flags<AnimationFlags>,
    pub model_num_nodes: u32,
    pub model_num_channels: u32,
    pub unk1: u32,
    pub ref_count: u32,
    pub rotation_threshold: F32,
    pub scale_threshold: F32,
    /// "Probably" (spec).
    pub translation_threshold: F32,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

pub fn parse_info(body: &[u8], base: u64) -> Result<AnimationInfo> {
    let mut r = body_reader(body, base);
    Ok(AnimationInfo {
        name: Name::read(&mut r, "animation.name")?,
        duration: read_f32(&mut r, "animation.duration")?,
        original_num_frames: r.u32("animation.original_num_frames")?,
        num_frames: r.u32("animation.num_frames")?,
        flags: Flags::new(r.u32("animation.flags")?),
        model_num_nodes: r.u32("animation.model_num_nodes")?,
        model_num_channels: r.u32("animation.model_num_channels")?,
        unk1: r.u32("animation.unk1")?,
        ref_count: r.u32("animation.ref_count")?,
        rotation_threshold: read_f32(&mut r, "animation.rotation_threshold")?,
        scale_threshold: read_f32(&mut r, "animation.scale_threshold")?,
        translation_threshold: read_f32(&mut r, "animation.translation_threshold")?,
        trailing: rest(&mut r),
    })
}

pub fn write_info(a: &AnimationInfo) -> Vec<u8> {
    let mut out = Vec::new();
    a.name.write(&mut out);
    out.put_f32(a.duration);
    for v in [
        a.original_num_frames,
        a.num_frames,
        a.flags.value,
        a.model_num_nodes,
        a.model_num_channels,
        a.unk1,
        a.ref_count,
    ] {
        out.put_u32(v);
    }
    out.put_floats(&[a.rotation_threshold, a.scale_threshold, a.translation_threshold]);
    out.extend_from_slice(&a.trailing.0);
    out
}

/// Record 0x0502.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Frames {
    pub frames: Vec<KeyFrame>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct KeyFrame {
    pub t: F32,
    pub xform: Mat3x4,
}

pub fn parse_frames(body: &[u8], base: u64) -> Result<Frames> {
    let mut r = body_reader(body, base);
    let frames = list_u16(&mut r, "animation_frames", 4 + Mat3x4::SIZE, |r| {
        Ok(KeyFrame { t: read_f32(r, "t")?, xform: Mat3x4::read(r, "xform")? })
    })?;
    Ok(Frames { frames, trailing: rest(&mut r) })
}

pub fn write_frames(f: &Frames) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + f.frames.len() * 52);
    out.put_u16(count_u16(f.frames.len()));
    for k in &f.frames {
        out.put_f32(k.t);
        k.xform.write(&mut out);
    }
    out.extend_from_slice(&f.trailing.0);
    out
}

/// Record 0x0503: for each node, its frames in 0x0502.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Lookup {
    pub nodes: Vec<FrameRange>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FrameRange {
    pub first_frame_index: u32,
    pub num_frames: u32,
}

pub fn parse_lookup(body: &[u8], base: u64) -> Result<Lookup> {
    let mut r = body_reader(body, base);
    let nodes = list_u16(&mut r, "animation_lookup", 8, |r| {
        Ok(FrameRange { first_frame_index: r.u32("first_frame_index")?, num_frames: r.u32("num_frames")? })
    })?;
    Ok(Lookup { nodes, trailing: rest(&mut r) })
}

pub fn write_lookup(l: &Lookup) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + l.nodes.len() * 8);
    out.put_u16(count_u16(l.nodes.len()));
    for n in &l.nodes {
        out.put_u32(n.first_frame_index);
        out.put_u32(n.num_frames);
    }
    out.extend_from_slice(&l.trailing.0);
    out
}

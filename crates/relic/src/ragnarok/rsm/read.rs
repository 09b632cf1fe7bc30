//! RSM bytes to [`Rsm`], through the bounded reader: every count is checked against the bytes that remain
//! before anything is allocated, and every error names the field (`meshes[3].faces[12].len`) and its byte
//! offset.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::text::{decode, encode, CP949};
use crate::error::{Error, Result};
use crate::reader::Reader;

/// A lower bound of a mesh record's size in any version (used to check the mesh count).
const MIN_MESH_SIZE: usize = 64;

/// Parses a whole RSM/RSM2 file.
pub fn parse(bytes: &[u8]) -> Result<Rsm> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected `GRSM`, found {magic:02X?}")));
    }
    let version = Version::new(r.u8("version.major")?, r.u8("version.minor")?);
    if !version.is_supported() {
        return Err(r.error_at(
            "version",
            4,
            format!("version {version} is not one relic reads ({} to {})", Version::MIN, Version::MAX),
        ));
    }
    let mut rsm = Rsm {
        version,
        animation_length: r.i32("animation_length")?,
        shade_type: r.i32("shade_type")?,
        alpha: None,
        reserved: None,
        frame_rate: None,
        volume_boxes: None,
        extra_v1_5: None,
        ..Rsm::new(version)
    };
    if version.has_alpha() {
        rsm.alpha = Some(r.u8("alpha")?);
    }
    if version.is_rsm2() {
        rsm.frame_rate = Some(r.f32("frame_rate")?);
        if !version.has_mesh_textures() {
            rsm.textures = names(&mut r, version, "textures")?;
        }
        rsm.root_names = names(&mut r, version, "root_names")?;
    } else {
        rsm.reserved = Some(r.array::<16>("reserved")?);
        rsm.textures = names(&mut r, version, "textures")?;
        rsm.root_names = vec![name(&mut r, version, "root_name")?];
    }
    let n = count(&mut r, "meshes", MIN_MESH_SIZE)?;
    rsm.meshes = Vec::with_capacity(n);
    for i in 0..n {
        rsm.meshes.push(item("meshes", i, || mesh(&mut r, version))?);
    }
    if version.has_v1_5_extra() {
        rsm.extra_v1_5 = Some(r.i32("extra_v1_5")?);
    }
    if !version.has_mesh_scale_keys() {
        rsm.scale_keys = scale_keys(&mut r, "scale_keys")?;
    }
    // Real 2.3 files end where the volume-box count would be (docs/formats/ragnarok.md#rsm-volume-boxes).
    if r.remaining() > 0 {
        let size = if version.has_volume_box_flags() { 40 } else { 36 };
        let n = count(&mut r, "volume_boxes", size)?;
        let mut boxes = Vec::with_capacity(n);
        for i in 0..n {
            boxes.push(item("volume_boxes", i, || {
                Ok(VolumeBox {
                    size: vec3(&mut r, "size")?,
                    position: vec3(&mut r, "position")?,
                    rotation: vec3(&mut r, "rotation")?,
                    flag: if version.has_volume_box_flags() { Some(r.i32("flag")?) } else { None },
                })
            })?);
        }
        rsm.volume_boxes = Some(boxes);
    }
    rsm.trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(rsm)
}

fn mesh(r: &mut Reader<'_>, version: Version) -> Result<Mesh> {
    let mut m =
        Mesh { name: name(r, version, "name")?, parent_name: name(r, version, "parent_name")?, ..Mesh::default() };
    if version.has_mesh_textures() {
        m.textures = names(r, version, "textures")?;
    } else {
        let n = count(r, "texture_indices", 4)?;
        m.texture_indices = (0..n).map(|i| item("texture_indices", i, || r.i32(""))).collect::<Result<_>>()?;
    }
    for (i, v) in m.matrix.iter_mut().enumerate() {
        *v = item("matrix", i, || r.f32(""))?;
    }
    if version.is_rsm2() {
        m.position = vec3(r, "position")?;
    } else {
        let offset = vec3(r, "offset")?;
        m.position = vec3(r, "position")?;
        m.legacy = Some(LegacyPlacement {
            offset,
            rotation_angle: r.f32("rotation_angle")?,
            rotation_axis: vec3(r, "rotation_axis")?,
            scale: vec3(r, "scale")?,
        });
    }
    let n = count(r, "vertices", 12)?;
    m.vertices = (0..n).map(|i| item("vertices", i, || vec3(r, ""))).collect::<Result<_>>()?;
    let colors = version.has_vertex_colors();
    let n = count(r, "tex_vertices", if colors { 12 } else { 8 })?;
    m.tex_vertices = (0..n)
        .map(|i| {
            item("tex_vertices", i, || {
                Ok(TexVertex {
                    color: if colors { Some(r.u32("color")?) } else { None },
                    uv: [r.f32("u")?, r.f32("v")?],
                })
            })
        })
        .collect::<Result<_>>()?;
    let n = count(r, "faces", if version.has_smooth_groups() { 24 } else { 20 })?;
    m.faces = Vec::with_capacity(n);
    for i in 0..n {
        m.faces.push(item("faces", i, || face(r, version))?);
    }
    if version.has_mesh_scale_keys() {
        m.scale_keys = scale_keys(r, "scale_keys")?;
    }
    let n = count(r, "rotation_keys", 20)?;
    m.rotation_keys = (0..n)
        .map(|i| {
            item("rotation_keys", i, || {
                let frame = r.i32("frame")?;
                let mut q = [0.0; 4];
                for v in &mut q {
                    *v = r.f32("quaternion")?;
                }
                Ok(RotationKey { frame, quaternion: q })
            })
        })
        .collect::<Result<_>>()?;
    if version.is_rsm2() {
        let n = count(r, "position_keys", 20)?;
        m.position_keys = (0..n)
            .map(|i| {
                item("position_keys", i, || {
                    Ok(PositionKey { frame: r.i32("frame")?, position: vec3(r, "position")?, data: r.i32("data")? })
                })
            })
            .collect::<Result<_>>()?;
    }
    if version.has_mesh_textures() {
        let n = count(r, "texture_animations", 8)?;
        m.texture_animations = Vec::with_capacity(n);
        for i in 0..n {
            m.texture_animations.push(item("texture_animations", i, || texture_animation(r))?);
        }
    }
    Ok(m)
}

fn face(r: &mut Reader<'_>, version: Version) -> Result<Face> {
    let groups = if version.is_rsm2() {
        let at = r.offset();
        let len = r.i32("len")?;
        let extra = usize::try_from(len).ok().and_then(|l| l.checked_sub(FACE_BASE_LEN)).filter(|e| e % 4 == 0);
        let Some(extra) = extra else {
            return Err(Error::invalid(
                FORMAT_ID,
                "len",
                at,
                format!("face length {len} is not 20 + 4 × (smooth group count)"),
            ));
        };
        r.count(extra as u64, 1, "len").map_err(|e| e.at_offset(at))?;
        extra / 4
    } else {
        usize::from(version.has_smooth_groups())
    };
    let mut u16s = [0u16; 8];
    for (i, v) in u16s.iter_mut().enumerate() {
        *v = r.u16(if i < 3 {
            "vertices"
        } else if i < 6 {
            "tex_vertices"
        } else if i == 6 {
            "texture"
        } else {
            "padding"
        })?;
    }
    let [a, b, c, d, e, f, texture, padding] = u16s;
    Ok(Face {
        vertices: [a, b, c],
        tex_vertices: [d, e, f],
        texture,
        padding,
        two_sided: r.i32("two_sided")?,
        smooth_groups: (0..groups).map(|i| item("smooth_groups", i, || r.i32(""))).collect::<Result<_>>()?,
    })
}

fn texture_animation(r: &mut Reader<'_>) -> Result<TextureAnimation> {
    let texture = r.i32("texture")?;
    let n = count(r, "channels", 8)?;
    let mut channels = Vec::with_capacity(n);
    for i in 0..n {
        channels.push(item("channels", i, || {
            let kind = r.i32("kind")?;
            let k = count(r, "keys", 8)?;
            let keys = (0..k)
                .map(|j| item("keys", j, || Ok(TextureKey { frame: r.i32("frame")?, value: r.f32("value")? })))
                .collect::<Result<_>>()?;
            Ok(TextureChannel { kind, keys })
        })?);
    }
    Ok(TextureAnimation { texture, channels })
}

fn scale_keys(r: &mut Reader<'_>, list: &str) -> Result<Vec<ScaleKey>> {
    let n = count(r, list, 20)?;
    (0..n)
        .map(|i| {
            item(list, i, || Ok(ScaleKey { frame: r.i32("frame")?, scale: vec3(r, "scale")?, data: r.f32("data")? }))
        })
        .collect()
}

fn vec3(r: &mut Reader<'_>, field: &str) -> Result<[f32; 3]> {
    Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
}

/// An int32 count, non-negative and small enough for `elem_size`-byte items to fit in what remains.
fn count(r: &mut Reader<'_>, field: &str, elem_size: usize) -> Result<usize> {
    let at = r.offset();
    let n = r.i32(field)?;
    let Ok(n) = u64::try_from(n) else {
        return Err(Error::invalid(FORMAT_ID, field, at, format!("negative count {n}")));
    };
    r.count(n, elem_size, field).map_err(|e| e.at_offset(at))
}

/// Runs the read of item `i` of `list`; an error's field `x` becomes `list[i].x` (`list[i]` when `x` is
/// empty). The path is only formatted when there is an error.
fn item<T>(list: &str, i: usize, read: impl FnOnce() -> Result<T>) -> Result<T> {
    read().map_err(|mut e| {
        if let Error::InvalidData { at, .. } | Error::Limit { at, .. } = &mut e {
            at.field = if at.field.is_empty() { format!("{list}[{i}]") } else { format!("{list}[{i}].{}", at.field) };
        }
        e
    })
}

/// A counted list of names.
fn names(r: &mut Reader<'_>, version: Version, list: &str) -> Result<Vec<Name>> {
    let n = count(r, list, if version.is_rsm2() { 4 } else { FIXED_NAME_LEN })?;
    (0..n).map(|i| item(list, i, || name(r, version, ""))).collect()
}

/// A fixed 40-byte name below 2.2, a length-prefixed one from 2.2 on.
fn name(r: &mut Reader<'_>, version: Version, field: &str) -> Result<Name> {
    if version.is_rsm2() {
        let n = count(r, field, 1)?;
        Ok(name_from_bytes(r.bytes(n, field)?, false))
    } else {
        Ok(name_from_bytes(r.bytes(FIXED_NAME_LEN, field)?, true))
    }
}

/// Decodes stored name bytes, keeping them when the text alone would not write them back.
pub fn name_from_bytes(raw: &[u8], fixed: bool) -> Name {
    let text = decode(CP949, before_nul(raw));
    let rebuilt = encode_text(&text, fixed);
    let raw = (rebuilt.as_deref() != Some(raw)).then(|| raw.to_vec());
    Name::with_raw(text, raw)
}

/// The bytes a name's text is written as: CP949, zero-padded to 40 bytes in fixed fields. `None` when a
/// character has no CP949 code or the text does not fit.
pub fn encode_text(text: &str, fixed: bool) -> Option<Vec<u8>> {
    let mut bytes = encode(CP949, text)?;
    if fixed {
        if bytes.len() > FIXED_NAME_LEN {
            return None;
        }
        bytes.resize(FIXED_NAME_LEN, 0);
    }
    Some(bytes)
}

//! Bytes to [`Rsw`], through the bounded reader. Two layouts the loaders disagree on are tried in turn
//! (see [`super`]): at 1.4 the three or four header names, and in 2.6 whether model records carry the
//! byte of builds ≥ 162 (RagLite; 186 in the other loaders). The first reading is tried first; the other
//! one when it fails or leaves trailing bytes.

use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::codec::text::{decode, encode, CP949};
use crate::error::{Error, Result};
use crate::ragnarok::rsm::types::before_nul;
use crate::reader::Reader;

/// The smallest object record (type int32 + a light: name 80, position 12, colour 12, range 4): what a
/// count is checked against before anything is allocated.
const MIN_OBJECT_LEN: usize = 4 + LONG_NAME_LEN + 12 + 12 + 4;

/// The reading choices for the layouts the loaders disagree on.
#[derive(Debug, Clone, Copy)]
struct Layout {
    /// At 1.4: read the fourth (source) name, as roBrowser and korangar do (BrowEdit3 reads three).
    names_1_4: bool,
    /// In 2.6: model records carry one more byte from build [`MODEL_BYTE_BUILD`] on (when `false`, the opposite).
    model_byte_by_build: bool,
}

/// Parses an RSW file. Where the loaders disagree (1.4 names, the 2.6+ model byte) the first reading is
/// kept when it reads the whole file; when it fails, or leaves bytes it does not understand (trailing
/// bytes), the other reading is taken if it reads the whole file.
pub fn parse(data: &[u8]) -> Result<Rsw> {
    let first = parse_with(data, Layout { names_1_4: true, model_byte_by_build: true });
    if first.as_ref().is_ok_and(|r| r.trailing.0.is_empty()) {
        return first;
    }
    let version = match data {
        [b'G', b'R', b'S', b'W', major, minor, ..] => Version::new(*major, *minor),
        _ => return first,
    };
    let mut others = Vec::new();
    if version == Version::new(1, 4) {
        others.push(Layout { names_1_4: false, model_byte_by_build: true });
    }
    if version.at_least(2, 6) {
        others.push(Layout { names_1_4: true, model_byte_by_build: false });
    }
    match others.into_iter().filter_map(|l| parse_with(data, l).ok()).find(|r| r.trailing.0.is_empty()) {
        Some(clean) => Ok(clean),
        None => first,
    }
}

fn parse_with(data: &[u8], layout: Layout) -> Result<Rsw> {
    let mut r = Reader::new(FORMAT_ID, data);
    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected GRSW, found {:02X?}", magic)));
    }
    let version = Version::new(r.u8("version.major")?, r.u8("version.minor")?);
    if !version.is_supported() {
        return Err(Error::Unsupported(format!(
            "{FORMAT_ID}: version {version} (relic reads {} to {})",
            Version::MIN,
            Version::MAX
        )));
    }
    let build_number = version.has_build_number().then(|| r.i32("build_number")).transpose()?;
    let flag = version.has_flag_byte().then(|| r.u8("flag")).transpose()?;
    let ini_file = name(&mut r, SHORT_NAME_LEN, "ini_file")?;
    let gnd_file = name(&mut r, SHORT_NAME_LEN, "gnd_file")?;
    let (gat_file, src_file) = if version == Version::new(1, 4) && !layout.names_1_4 {
        (None, Some(name(&mut r, SHORT_NAME_LEN, "src_file")?))
    } else {
        let gat = name(&mut r, SHORT_NAME_LEN, "gat_file")?;
        let src = version.has_src_file().then(|| name(&mut r, SHORT_NAME_LEN, "src_file")).transpose()?;
        (Some(gat), src)
    };
    let water = version
        .has_water()
        .then(|| -> Result<Water> {
            let level = version.has_water_level().then(|| r.f32("water.level")).transpose()?;
            let mut w = Water { level, ..Water::default() };
            if version.has_waves() {
                w.water_type = Some(r.i32("water.type")?);
                w.wave_height = Some(r.f32("water.wave_height")?);
                w.wave_speed = Some(r.f32("water.wave_speed")?);
                w.wave_pitch = Some(r.f32("water.wave_pitch")?);
            }
            w.anim_speed = version.has_water_anim_speed().then(|| r.i32("water.anim_speed")).transpose()?;
            Ok(w)
        })
        .transpose()?;
    let light = version
        .has_light()
        .then(|| -> Result<Light> {
            Ok(Light {
                longitude: r.i32("light.longitude")?,
                latitude: r.i32("light.latitude")?,
                diffuse: vec3(&mut r, "light.diffuse")?,
                ambient: vec3(&mut r, "light.ambient")?,
                shadow_opacity: version.has_shadow_opacity().then(|| r.f32("light.shadow_opacity")).transpose()?,
            })
        })
        .transpose()?;
    let ground = version
        .has_ground()
        .then(|| -> Result<Ground> {
            Ok(Ground {
                top: r.i32("ground.top")?,
                bottom: r.i32("ground.bottom")?,
                left: r.i32("ground.left")?,
                right: r.i32("ground.right")?,
            })
        })
        .transpose()?;
    let unknown_list = version
        .has_unknown_list()
        .then(|| -> Result<Vec<i32>> {
            let n = count(&mut r, 4, "unknown_list")?;
            (0..n).map(|_| r.i32("unknown_list[]")).collect()
        })
        .transpose()?;

    let model_byte =
        version.at_least(2, 6) && (build_number.unwrap_or(0) >= MODEL_BYTE_BUILD) == layout.model_byte_by_build;
    let n = count(&mut r, MIN_OBJECT_LEN, "object_count")?;
    let mut objects = Vec::with_capacity(n);
    for i in 0..n {
        objects.push(object(&mut r, version, model_byte).map_err(|e| e.within(format!("objects[{i}]")))?);
    }

    let quadtree = (version.has_quadtree() && r.remaining() >= QUADTREE_NODES * QUADTREE_NODE_LEN)
        .then(|| -> Result<Vec<QuadNode>> {
            (0..QUADTREE_NODES)
                .map(|_| {
                    Ok(QuadNode {
                        max: vec3(&mut r, "quadtree.max")?,
                        min: vec3(&mut r, "quadtree.min")?,
                        half_size: vec3(&mut r, "quadtree.half_size")?,
                        center: vec3(&mut r, "quadtree.center")?,
                    })
                })
                .collect()
        })
        .transpose()?;
    let trailing = Base64(r.bytes(r.remaining(), "trailing")?.to_vec());
    Ok(Rsw {
        version,
        build_number,
        flag,
        ini_file,
        gnd_file,
        gat_file,
        src_file,
        water,
        light,
        ground,
        unknown_list,
        objects,
        quadtree,
        trailing,
    })
}

fn object(r: &mut Reader<'_>, version: Version, model_byte: bool) -> Result<Object> {
    let at = r.pos();
    Ok(match r.i32("type")? {
        1 => {
            let header = version.has_model_header();
            Object::Model(Model {
                name: header.then(|| name(r, SHORT_NAME_LEN, "name")).transpose()?,
                anim_type: header.then(|| r.i32("anim_type")).transpose()?,
                anim_speed: header.then(|| r.f32("anim_speed")).transpose()?,
                block_type: header.then(|| r.i32("block_type")).transpose()?,
                flag: model_byte.then(|| r.u8("flag")).transpose()?,
                unknown: version.has_model_int().then(|| r.i32("unknown")).transpose()?,
                file: name(r, LONG_NAME_LEN, "file")?,
                node: name(r, LONG_NAME_LEN, "node")?,
                position: vec3(r, "position")?,
                rotation: vec3(r, "rotation")?,
                scale: vec3(r, "scale")?,
            })
        }
        2 => Object::Light(LightSource {
            name: name(r, LONG_NAME_LEN, "name")?,
            position: vec3(r, "position")?,
            color: vec3(r, "color")?,
            range: r.f32("range")?,
        }),
        3 => Object::Sound(Sound {
            name: name(r, LONG_NAME_LEN, "name")?,
            file: name(r, LONG_NAME_LEN, "file")?,
            position: vec3(r, "position")?,
            volume: r.f32("volume")?,
            width: r.i32("width")?,
            height: r.i32("height")?,
            range: r.f32("range")?,
            cycle: version.has_sound_cycle().then(|| r.f32("cycle")).transpose()?,
        }),
        4 => Object::Effect(Effect {
            name: name(r, LONG_NAME_LEN, "name")?,
            position: vec3(r, "position")?,
            id: r.i32("id")?,
            delay: r.f32("delay")?,
            params: [r.f32("params")?, r.f32("params")?, r.f32("params")?, r.f32("params")?],
        }),
        other => {
            return Err(r.error_at(
                "type",
                at,
                format!("object type {other} is none of 1 (model), 2 (light), 3 (sound), 4 (effect)"),
            ))
        }
    })
}

fn vec3(r: &mut Reader<'_>, field: &str) -> Result<[f32; 3]> {
    Ok([r.f32(field)?, r.f32(field)?, r.f32(field)?])
}

/// An int32 count, checked against the bytes that remain (items of at least `elem` bytes).
fn count(r: &mut Reader<'_>, elem: usize, field: &str) -> Result<usize> {
    let at = r.pos();
    let n = r.i32(field)?;
    let n = u64::try_from(n).map_err(|_| r.error_at(field, at, format!("negative count {n}")))?;
    r.count(n, elem, field).map_err(|e| e.at_offset(at as u64))
}

/// A fixed name field of `len` bytes, its bytes kept when the text alone would not write them back.
fn name(r: &mut Reader<'_>, len: usize, field: &str) -> Result<Name> {
    Ok(name_from_bytes(r.bytes(len, field)?))
}

/// Decodes a fixed name field (CP949 up to the first NUL), keeping the raw bytes unless the text
/// zero-padded gives them back.
pub fn name_from_bytes(raw: &[u8]) -> Name {
    let text = decode(CP949, before_nul(raw));
    let rebuilt = encode_fixed(&text, raw.len());
    let raw = (rebuilt.as_deref() != Some(raw)).then(|| raw.to_vec());
    Name::with_raw(text, raw)
}

/// `text` as CP949 zero-padded to `len` bytes; `None` when a character has no CP949 code or it does not fit.
pub fn encode_fixed(text: &str, len: usize) -> Option<Vec<u8>> {
    let mut bytes = encode(CP949, text)?;
    if bytes.len() > len || bytes.contains(&0) {
        return None;
    }
    bytes.resize(len, 0);
    Some(bytes)
}

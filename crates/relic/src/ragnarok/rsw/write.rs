//! [`Rsw`] to bytes. The document must fit its version: fields a version does not carry must be absent,
//! and fields it carries present (the error names the field). The output is parsed again before it is
//! returned, so what is written always reads back as the same document.

use super::read::{encode_fixed, parse};
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::writer::Writer;

/// The value of a field the version carries; an error naming it when it is absent, or present where the
/// version does not carry it.
fn fits<T: Copy>(value: Option<T>, carried: bool, version: Version, field: &str) -> Result<Option<T>> {
    match (value, carried) {
        (Some(_), true) | (None, false) => Ok(value),
        (None, true) => Err(Error::refused(FORMAT_ID, field, format!("version {version} carries this field: give it"))),
        (Some(_), false) => {
            Err(Error::refused(FORMAT_ID, field, format!("version {version} has no such field: leave it out")))
        }
    }
}

/// A fixed name field of `len` bytes: its raw bytes while they still decode to its text, else the text.
fn put_name(o: &mut Writer, name: &Name, len: usize, field: &str) -> Result<()> {
    let bytes = match name.usable_raw().filter(|raw| raw.len() == len) {
        Some(raw) => raw.to_vec(),
        None => encode_fixed(&name.text, len)
            .ok_or_else(|| o.refused(field, format!("`{}` does not fit a {len}-byte CP949 field", name.text)))?,
    };
    o.bytes(&bytes);
    Ok(())
}

/// The bytes of a document, unchecked.
fn encode(rsw: &Rsw) -> Result<Vec<u8>> {
    let v = rsw.version;
    if !v.is_supported() {
        return Err(Error::refused(
            FORMAT_ID,
            "version",
            format!("relic writes versions {} to {}", Version::MIN, Version::MAX),
        ));
    }
    let mut o = Writer::new(FORMAT_ID);
    o.bytes(&MAGIC);
    o.u8(v.major);
    o.u8(v.minor);
    if let Some(b) = fits(rsw.build_number, v.has_build_number(), v, "build_number")? {
        o.i32(b);
    }
    if let Some(f) = fits(rsw.flag, v.has_flag_byte(), v, "flag")? {
        o.u8(f);
    }
    put_name(&mut o, &rsw.ini_file, SHORT_NAME_LEN, "ini_file")?;
    put_name(&mut o, &rsw.gnd_file, SHORT_NAME_LEN, "gnd_file")?;
    // At 1.4 either the gat or the source name may be absent (the two layouts of `super`), not both.
    let three_names_1_4 = v == Version::new(1, 4) && rsw.gat_file.is_none();
    match (&rsw.gat_file, three_names_1_4) {
        (Some(gat), _) => put_name(&mut o, gat, SHORT_NAME_LEN, "gat_file")?,
        (None, true) => {}
        (None, false) => {
            return Err(Error::refused(FORMAT_ID, "gat_file", format!("version {v} carries this field: give it")))
        }
    }
    match (&rsw.src_file, v.has_src_file()) {
        (Some(src), true) => put_name(&mut o, src, SHORT_NAME_LEN, "src_file")?,
        (None, false) => {}
        (None, true) => {
            return Err(Error::refused(FORMAT_ID, "src_file", format!("version {v} carries this field: give it")))
        }
        (Some(_), false) => {
            return Err(Error::refused(FORMAT_ID, "src_file", format!("version {v} has no such field: leave it out")))
        }
    }
    let water = fits(rsw.water.as_ref(), v.has_water(), v, "water")?;
    if let Some(w) = water {
        if let Some(level) = fits(w.level, v.has_water_level(), v, "water.level")? {
            o.f32s(&[level]);
        }
        if let Some(t) = fits(w.water_type, v.has_waves(), v, "water.type")? {
            o.i32(t);
        }
        for (value, field) in [
            (w.wave_height, "water.wave_height"),
            (w.wave_speed, "water.wave_speed"),
            (w.wave_pitch, "water.wave_pitch"),
        ] {
            if let Some(x) = fits(value, v.has_waves(), v, field)? {
                o.f32s(&[x]);
            }
        }
        if let Some(a) = fits(w.anim_speed, v.has_water_anim_speed(), v, "water.anim_speed")? {
            o.i32(a);
        }
    }
    if let Some(l) = fits(rsw.light.as_ref(), v.has_light(), v, "light")? {
        o.i32(l.longitude);
        o.i32(l.latitude);
        o.f32s(&l.diffuse);
        o.f32s(&l.ambient);
        if let Some(s) = fits(l.shadow_opacity, v.has_shadow_opacity(), v, "light.shadow_opacity")? {
            o.f32s(&[s]);
        }
    }
    if let Some(g) = fits(rsw.ground, v.has_ground(), v, "ground")? {
        for x in [g.top, g.bottom, g.left, g.right] {
            o.i32(x);
        }
    }
    if let Some(list) = fits(rsw.unknown_list.as_ref(), v.has_unknown_list(), v, "unknown_list")? {
        o.count_i32("unknown_list", list.len())?;
        for &x in list {
            o.i32(x);
        }
    }
    o.count_i32("objects", rsw.objects.len())?;
    for (i, object) in rsw.objects.iter().enumerate() {
        write_object(&mut o, object, v).map_err(|e| e.within(format!("objects[{i}]")))?;
    }
    match (&rsw.quadtree, v.has_quadtree()) {
        (None, _) => {}
        (Some(q), true) if q.len() == QUADTREE_NODES => {
            for n in q {
                o.f32s(&n.max);
                o.f32s(&n.min);
                o.f32s(&n.half_size);
                o.f32s(&n.center);
            }
        }
        (Some(q), true) => {
            return Err(Error::refused(
                FORMAT_ID,
                "quadtree",
                format!("{} nodes: a quadtree has exactly {QUADTREE_NODES}", q.len()),
            ))
        }
        (Some(_), false) => {
            return Err(Error::refused(FORMAT_ID, "quadtree", format!("version {v} has no quadtree: leave it out")));
        }
    }
    o.bytes(&rsw.trailing.0);
    Ok(o.into_bytes())
}

/// Writes an RSW file.
pub fn write(rsw: &Rsw) -> Result<Vec<u8>> {
    let bytes = encode(rsw)?;
    // Read back: the layouts that depend on the data (the 1.4 names, the 2.6+ model byte) must come out
    // as given, or the bytes are not the document.
    let back = parse(&bytes).map_err(|e| Error::refused(FORMAT_ID, "document", format!("does not read back: {e}")))?;
    let flags = |r: &Rsw| r.models().map(|m| m.flag.is_some()).collect::<Vec<_>>();
    if back.gat_file.is_some() != rsw.gat_file.is_some() || flags(&back) != flags(rsw) || encode(&back)? != bytes {
        return Err(Error::refused(
            FORMAT_ID,
            "document",
            "reads back differently: the model `flag` bytes (2.6+) must all be present from build 162 on and \
             all absent below it (or the other way round for every model), and a 1.4 file must read as the \
             names it gives",
        ));
    }
    Ok(bytes)
}

fn write_object(o: &mut Writer, object: &Object, v: Version) -> Result<()> {
    o.i32(object.type_id());
    match object {
        Object::Model(m) => {
            let header = v.has_model_header();
            if let Some(n) = fits(m.name.as_ref(), header, v, "name")? {
                put_name(o, n, SHORT_NAME_LEN, "name")?;
            }
            if let Some(t) = fits(m.anim_type, header, v, "anim_type")? {
                o.i32(t);
            }
            if let Some(s) = fits(m.anim_speed, header, v, "anim_speed")? {
                o.f32s(&[s]);
            }
            if let Some(b) = fits(m.block_type, header, v, "block_type")? {
                o.i32(b);
            }
            if let Some(f) = m.flag {
                if !v.at_least(2, 6) {
                    return Err(Error::refused(
                        FORMAT_ID,
                        "flag",
                        format!("version {v} has no such field: leave it out"),
                    ));
                }
                o.u8(f);
            }
            if let Some(u) = fits(m.unknown, v.has_model_int(), v, "unknown")? {
                o.i32(u);
            }
            put_name(o, &m.file, LONG_NAME_LEN, "file")?;
            put_name(o, &m.node, LONG_NAME_LEN, "node")?;
            o.f32s(&m.position);
            o.f32s(&m.rotation);
            o.f32s(&m.scale);
        }
        Object::Light(l) => {
            put_name(o, &l.name, LONG_NAME_LEN, "name")?;
            o.f32s(&l.position);
            o.f32s(&l.color);
            o.f32s(&[l.range]);
        }
        Object::Sound(s) => {
            put_name(o, &s.name, LONG_NAME_LEN, "name")?;
            put_name(o, &s.file, LONG_NAME_LEN, "file")?;
            o.f32s(&s.position);
            o.f32s(&[s.volume]);
            o.i32(s.width);
            o.i32(s.height);
            o.f32s(&[s.range]);
            if let Some(c) = fits(s.cycle, v.has_sound_cycle(), v, "cycle")? {
                o.f32s(&[c]);
            }
        }
        Object::Effect(e) => {
            put_name(o, &e.name, LONG_NAME_LEN, "name")?;
            o.f32s(&e.position);
            o.i32(e.id);
            o.f32s(&[e.delay]);
            o.f32s(&e.params);
        }
    }
    Ok(())
}

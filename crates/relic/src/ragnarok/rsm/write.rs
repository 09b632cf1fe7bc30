//! [`Rsm`] to bytes. The model must fit its version: fields a version does not carry must be absent or
//! empty, and fields it carries must be present (the error names the field). The output is parsed again
//! before it is returned.

use super::read::{encode_text, parse};
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};
use crate::writer::Writer;

/// A fixed 40-byte name below 2.2, a length-prefixed one from 2.2 on.
fn put_name(w: &mut Writer, v: Version, name: &Name, field: &str) -> Result<()> {
    let fixed = !v.is_rsm2();
    let bytes = match name.usable_raw().filter(|raw| !fixed || raw.len() == FIXED_NAME_LEN) {
        Some(raw) => raw.to_vec(),
        None => encode_text(&name.text, fixed).ok_or_else(|| {
            w.refused(
                field,
                if fixed {
                    format!("`{}` does not fit a 40-byte CP949 field", name.text)
                } else {
                    format!("`{}` has characters that CP949 cannot hold", name.text)
                },
            )
        })?,
    };
    if !fixed {
        w.count_i32(field, bytes.len())?;
    }
    w.bytes(&bytes);
    Ok(())
}

fn put_names(w: &mut Writer, v: Version, names: &[Name], list: &str) -> Result<()> {
    w.count_i32(list, names.len())?;
    for (i, n) in names.iter().enumerate() {
        put_name(w, v, n, &format!("{list}[{i}]"))?;
    }
    Ok(())
}

fn put_scale_keys(w: &mut Writer, keys: &[ScaleKey], list: &str) -> Result<()> {
    w.count_i32(list, keys.len())?;
    for k in keys {
        w.i32(k.frame);
        w.f32s(&k.scale);
        w.f32(k.data);
    }
    Ok(())
}

/// Requires an optional field exactly when the version carries it.
fn presence<T>(value: &Option<T>, wanted: bool, field: &str, version: Version) -> Result<()> {
    match (value.is_some(), wanted) {
        (true, false) => Err(Error::refused(FORMAT_ID, field, format!("version {version} has no such field"))),
        (false, true) => Err(Error::refused(FORMAT_ID, field, format!("version {version} needs this field"))),
        _ => Ok(()),
    }
}

/// Requires a list to be empty when the version does not carry it.
fn only_if<T>(list: &[T], allowed: bool, field: &str, version: Version) -> Result<()> {
    if !allowed && !list.is_empty() {
        return Err(Error::refused(FORMAT_ID, field, format!("version {version} has no such list")));
    }
    Ok(())
}

/// Writes a model and checks that the bytes parse again.
pub fn write(rsm: &Rsm) -> Result<Vec<u8>> {
    let v = rsm.version;
    if !v.is_supported() {
        return Err(Error::refused(
            FORMAT_ID,
            "version",
            format!("relic writes versions {} to {}, not {v}", Version::MIN, Version::MAX),
        ));
    }
    presence(&rsm.alpha, v.has_alpha(), "alpha", v)?;
    presence(&rsm.reserved, !v.is_rsm2(), "reserved", v)?;
    presence(&rsm.frame_rate, v.is_rsm2(), "frame_rate", v)?;
    presence(&rsm.extra_v1_5, v.has_v1_5_extra(), "extra_v1_5", v)?;
    only_if(&rsm.textures, !v.has_mesh_textures(), "textures", v)?;
    only_if(&rsm.scale_keys, !v.has_mesh_scale_keys(), "scale_keys", v)?;
    if !v.is_rsm2() && rsm.root_names.len() != 1 {
        return Err(Error::refused(FORMAT_ID, "root_names", format!("version {v} holds exactly one root name")));
    }
    if rsm.volume_boxes.is_none() && !rsm.trailing.0.is_empty() {
        return Err(Error::refused(FORMAT_ID, "trailing", "trailing bytes need the volume-box list before them"));
    }

    let mut w = Writer::new(FORMAT_ID);
    w.bytes(&MAGIC);
    w.u8(v.major);
    w.u8(v.minor);
    w.i32(rsm.animation_length);
    w.i32(rsm.shade_type);
    if let Some(a) = rsm.alpha {
        w.u8(a);
    }
    if let Some(reserved) = &rsm.reserved {
        w.bytes(reserved);
        put_names(&mut w, v, &rsm.textures, "textures")?;
        if let Some(root) = rsm.root_names.first() {
            put_name(&mut w, v, root, "root_names[0]")?;
        }
    }
    if let Some(fps) = rsm.frame_rate {
        w.f32s(&[fps]);
        if !v.has_mesh_textures() {
            put_names(&mut w, v, &rsm.textures, "textures")?;
        }
        put_names(&mut w, v, &rsm.root_names, "root_names")?;
    }
    w.count_i32("meshes", rsm.meshes.len())?;
    for (i, m) in rsm.meshes.iter().enumerate() {
        mesh(&mut w, v, m).map_err(|e| e.within(format!("meshes[{i}]")))?;
    }
    if let Some(x) = rsm.extra_v1_5 {
        w.i32(x);
    }
    if !v.has_mesh_scale_keys() {
        put_scale_keys(&mut w, &rsm.scale_keys, "scale_keys")?;
    }
    if let Some(boxes) = &rsm.volume_boxes {
        w.count_i32("volume_boxes", boxes.len())?;
        for (i, b) in boxes.iter().enumerate() {
            presence(&b.flag, v.has_volume_box_flags(), &format!("volume_boxes[{i}].flag"), v)?;
            w.f32s(&b.size);
            w.f32s(&b.position);
            w.f32s(&b.rotation);
            if let Some(flag) = b.flag {
                w.i32(flag);
            }
        }
    }
    w.bytes(&rsm.trailing.0);
    parse(w.data())
        .map_err(|e| Error::refused(FORMAT_ID, "document", format!("the written model does not read back: {e}")))?;
    Ok(w.into_bytes())
}

fn mesh(w: &mut Writer, v: Version, m: &Mesh) -> Result<()> {
    only_if(&m.textures, v.has_mesh_textures(), "textures", v)?;
    only_if(&m.texture_indices, !v.has_mesh_textures(), "texture_indices", v)?;
    presence(&m.legacy, !v.is_rsm2(), "legacy", v)?;
    only_if(&m.scale_keys, v.has_mesh_scale_keys(), "scale_keys", v)?;
    only_if(&m.position_keys, v.is_rsm2(), "position_keys", v)?;
    only_if(&m.texture_animations, v.has_mesh_textures(), "texture_animations", v)?;

    put_name(w, v, &m.name, "name")?;
    put_name(w, v, &m.parent_name, "parent_name")?;
    if v.has_mesh_textures() {
        put_names(w, v, &m.textures, "textures")?;
    } else {
        w.count_i32("texture_indices", m.texture_indices.len())?;
        for &t in &m.texture_indices {
            w.i32(t);
        }
    }
    w.f32s(&m.matrix);
    if let Some(l) = &m.legacy {
        w.f32s(&l.offset);
        w.f32s(&m.position);
        w.f32s(&[l.rotation_angle]);
        w.f32s(&l.rotation_axis);
        w.f32s(&l.scale);
    } else {
        w.f32s(&m.position);
    }
    w.count_i32("vertices", m.vertices.len())?;
    for p in &m.vertices {
        w.f32s(p);
    }
    w.count_i32("tex_vertices", m.tex_vertices.len())?;
    for (i, t) in m.tex_vertices.iter().enumerate() {
        presence(&t.color, v.has_vertex_colors(), &format!("tex_vertices[{i}].color"), v)?;
        if let Some(c) = t.color {
            w.u32(c);
        }
        w.f32s(&t.uv);
    }
    w.count_i32("faces", m.faces.len())?;
    for (i, f) in m.faces.iter().enumerate() {
        let groups = f.smooth_groups.len();
        let field = format!("faces[{i}].smooth_groups");
        if v.is_rsm2() {
            let len = f.record_len();
            w.count_i32(&field, len)?;
        } else if groups != usize::from(v.has_smooth_groups()) {
            return Err(Error::refused(
                FORMAT_ID,
                field,
                format!("version {v} faces hold {} smooth group(s), not {groups}", usize::from(v.has_smooth_groups())),
            ));
        }
        for x in f.vertices.iter().chain(&f.tex_vertices).chain([&f.texture, &f.padding]) {
            w.u16(*x);
        }
        w.i32(f.two_sided);
        for &g in &f.smooth_groups {
            w.i32(g);
        }
    }
    if v.has_mesh_scale_keys() {
        put_scale_keys(w, &m.scale_keys, "scale_keys")?;
    }
    w.count_i32("rotation_keys", m.rotation_keys.len())?;
    for k in &m.rotation_keys {
        w.i32(k.frame);
        w.f32s(&k.quaternion);
    }
    if v.is_rsm2() {
        w.count_i32("position_keys", m.position_keys.len())?;
        for k in &m.position_keys {
            w.i32(k.frame);
            w.f32s(&k.position);
            w.i32(k.data);
        }
    }
    if v.has_mesh_textures() {
        w.count_i32("texture_animations", m.texture_animations.len())?;
        for (i, a) in m.texture_animations.iter().enumerate() {
            w.i32(a.texture);
            w.count_i32(&format!("texture_animations[{i}].channels"), a.channels.len())?;
            for (j, c) in a.channels.iter().enumerate() {
                w.i32(c.kind);
                w.count_i32(&format!("texture_animations[{i}].channels[{j}].keys"), c.keys.len())?;
                for k in &c.keys {
                    w.i32(k.frame);
                    w.f32s(&[k.value]);
                }
            }
        }
    }
    Ok(())
}

//! [`Rsm`] to bytes. The model must fit its version: fields a version does not carry must be absent or
//! empty, and fields it carries must be present (the error names the field). The output is parsed again
//! before it is returned.

use super::read::{encode_text, parse};
use super::types::*;
use super::FORMAT_ID;
use crate::error::{Error, Result};

fn refuse(field: impl Into<String>, message: impl Into<String>) -> Error {
    Error::invalid(FORMAT_ID, field, 0, message)
}

struct Out {
    bytes: Vec<u8>,
    version: Version,
}

impl Out {
    fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn f32s(&mut self, v: &[f32]) {
        for x in v {
            self.bytes.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    }
    fn count(&mut self, n: usize, field: &str) -> Result<()> {
        let n = i32::try_from(n).map_err(|_| refuse(field, format!("{n} items do not fit an int32 count")))?;
        self.i32(n);
        Ok(())
    }
    /// A fixed 40-byte name below 2.2, a length-prefixed one from 2.2 on.
    fn name(&mut self, name: &Name, field: &str) -> Result<()> {
        let fixed = !self.version.is_rsm2();
        let bytes = match name.usable_raw().filter(|raw| !fixed || raw.len() == FIXED_NAME_LEN) {
            Some(raw) => raw.to_vec(),
            None => encode_text(&name.text, fixed).ok_or_else(|| {
                refuse(
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
            self.count(bytes.len(), field)?;
        }
        self.bytes.extend_from_slice(&bytes);
        Ok(())
    }
    fn names(&mut self, names: &[Name], list: &str) -> Result<()> {
        self.count(names.len(), list)?;
        for (i, n) in names.iter().enumerate() {
            self.name(n, &format!("{list}[{i}]"))?;
        }
        Ok(())
    }
    fn scale_keys(&mut self, keys: &[ScaleKey], list: &str) -> Result<()> {
        self.count(keys.len(), list)?;
        for k in keys {
            self.i32(k.frame);
            self.f32s(&k.scale);
            self.f32s(&[k.data]);
        }
        Ok(())
    }
}

/// Requires an optional field exactly when the version carries it.
fn presence<T>(value: &Option<T>, wanted: bool, field: &str, version: Version) -> Result<()> {
    match (value.is_some(), wanted) {
        (true, false) => Err(refuse(field, format!("version {version} has no such field"))),
        (false, true) => Err(refuse(field, format!("version {version} needs this field"))),
        _ => Ok(()),
    }
}

/// Requires a list to be empty when the version does not carry it.
fn only_if<T>(list: &[T], allowed: bool, field: &str, version: Version) -> Result<()> {
    if !allowed && !list.is_empty() {
        return Err(refuse(field, format!("version {version} has no such list")));
    }
    Ok(())
}

/// Writes a model and checks that the bytes parse again.
pub fn write(rsm: &Rsm) -> Result<Vec<u8>> {
    let v = rsm.version;
    if !v.is_supported() {
        return Err(refuse("version", format!("relic writes versions {} to {}, not {v}", Version::MIN, Version::MAX)));
    }
    presence(&rsm.alpha, v.has_alpha(), "alpha", v)?;
    presence(&rsm.reserved, !v.is_rsm2(), "reserved", v)?;
    presence(&rsm.frame_rate, v.is_rsm2(), "frame_rate", v)?;
    presence(&rsm.extra_v1_5, v.has_v1_5_extra(), "extra_v1_5", v)?;
    only_if(&rsm.textures, !v.has_mesh_textures(), "textures", v)?;
    only_if(&rsm.scale_keys, !v.has_mesh_scale_keys(), "scale_keys", v)?;
    if !v.is_rsm2() && rsm.root_names.len() != 1 {
        return Err(refuse("root_names", format!("version {v} holds exactly one root name")));
    }
    if rsm.volume_boxes.is_none() && !rsm.trailing.0.is_empty() {
        return Err(refuse("trailing", "trailing bytes need the volume-box list before them"));
    }

    let mut out = Out { bytes: Vec::new(), version: v };
    out.bytes.extend_from_slice(&MAGIC);
    out.u8(v.major);
    out.u8(v.minor);
    out.i32(rsm.animation_length);
    out.i32(rsm.shade_type);
    if let Some(a) = rsm.alpha {
        out.u8(a);
    }
    if let Some(reserved) = &rsm.reserved {
        out.bytes.extend_from_slice(reserved);
        out.names(&rsm.textures, "textures")?;
        if let Some(root) = rsm.root_names.first() {
            out.name(root, "root_names[0]")?;
        }
    }
    if let Some(fps) = rsm.frame_rate {
        out.f32s(&[fps]);
        if !v.has_mesh_textures() {
            out.names(&rsm.textures, "textures")?;
        }
        out.names(&rsm.root_names, "root_names")?;
    }
    out.count(rsm.meshes.len(), "meshes")?;
    for (i, m) in rsm.meshes.iter().enumerate() {
        mesh(&mut out, m).map_err(|e| e.within(format!("meshes[{i}]")))?;
    }
    if let Some(x) = rsm.extra_v1_5 {
        out.i32(x);
    }
    if !v.has_mesh_scale_keys() {
        out.scale_keys(&rsm.scale_keys, "scale_keys")?;
    }
    if let Some(boxes) = &rsm.volume_boxes {
        out.count(boxes.len(), "volume_boxes")?;
        for (i, b) in boxes.iter().enumerate() {
            presence(&b.flag, v.has_volume_box_flags(), &format!("volume_boxes[{i}].flag"), v)?;
            out.f32s(&b.size);
            out.f32s(&b.position);
            out.f32s(&b.rotation);
            if let Some(flag) = b.flag {
                out.i32(flag);
            }
        }
    }
    out.bytes.extend_from_slice(&rsm.trailing.0);
    parse(&out.bytes).map_err(|e| refuse("document", format!("the written model does not read back: {e}")))?;
    Ok(out.bytes)
}

fn mesh(out: &mut Out, m: &Mesh) -> Result<()> {
    let v = out.version;
    only_if(&m.textures, v.has_mesh_textures(), "textures", v)?;
    only_if(&m.texture_indices, !v.has_mesh_textures(), "texture_indices", v)?;
    presence(&m.legacy, !v.is_rsm2(), "legacy", v)?;
    only_if(&m.scale_keys, v.has_mesh_scale_keys(), "scale_keys", v)?;
    only_if(&m.position_keys, v.is_rsm2(), "position_keys", v)?;
    only_if(&m.texture_animations, v.has_mesh_textures(), "texture_animations", v)?;

    out.name(&m.name, "name")?;
    out.name(&m.parent_name, "parent_name")?;
    if v.has_mesh_textures() {
        out.names(&m.textures, "textures")?;
    } else {
        out.count(m.texture_indices.len(), "texture_indices")?;
        for &t in &m.texture_indices {
            out.i32(t);
        }
    }
    out.f32s(&m.matrix);
    if let Some(l) = &m.legacy {
        out.f32s(&l.offset);
        out.f32s(&m.position);
        out.f32s(&[l.rotation_angle]);
        out.f32s(&l.rotation_axis);
        out.f32s(&l.scale);
    } else {
        out.f32s(&m.position);
    }
    out.count(m.vertices.len(), "vertices")?;
    for p in &m.vertices {
        out.f32s(p);
    }
    out.count(m.tex_vertices.len(), "tex_vertices")?;
    for (i, t) in m.tex_vertices.iter().enumerate() {
        presence(&t.color, v.has_vertex_colors(), &format!("tex_vertices[{i}].color"), v)?;
        if let Some(c) = t.color {
            out.u32(c);
        }
        out.f32s(&t.uv);
    }
    out.count(m.faces.len(), "faces")?;
    for (i, f) in m.faces.iter().enumerate() {
        let groups = f.smooth_groups.len();
        let field = format!("faces[{i}].smooth_groups");
        if v.is_rsm2() {
            let len = f.record_len();
            out.count(len, &field)?;
        } else if groups != usize::from(v.has_smooth_groups()) {
            return Err(refuse(
                field,
                format!("version {v} faces hold {} smooth group(s), not {groups}", usize::from(v.has_smooth_groups())),
            ));
        }
        for x in f.vertices.iter().chain(&f.tex_vertices).chain([&f.texture, &f.padding]) {
            out.u16(*x);
        }
        out.i32(f.two_sided);
        for &g in &f.smooth_groups {
            out.i32(g);
        }
    }
    if v.has_mesh_scale_keys() {
        out.scale_keys(&m.scale_keys, "scale_keys")?;
    }
    out.count(m.rotation_keys.len(), "rotation_keys")?;
    for k in &m.rotation_keys {
        out.i32(k.frame);
        out.f32s(&k.quaternion);
    }
    if v.is_rsm2() {
        out.count(m.position_keys.len(), "position_keys")?;
        for k in &m.position_keys {
            out.i32(k.frame);
            out.f32s(&k.position);
            out.i32(k.data);
        }
    }
    if v.has_mesh_textures() {
        out.count(m.texture_animations.len(), "texture_animations")?;
        for (i, a) in m.texture_animations.iter().enumerate() {
            out.i32(a.texture);
            out.count(a.channels.len(), &format!("texture_animations[{i}].channels"))?;
            for (j, c) in a.channels.iter().enumerate() {
                out.i32(c.kind);
                out.count(c.keys.len(), &format!("texture_animations[{i}].channels[{j}].keys"))?;
                for k in &c.keys {
                    out.i32(k.frame);
                    out.f32s(&[k.value]);
                }
            }
        }
    }
    Ok(())
}

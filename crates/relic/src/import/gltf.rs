//! glTF 2.0 in (`.glb`, or `.gltf` JSON with its buffers and images as data URIs or files beside it): the
//! scene as [`Scene`], in glTF's own axes (Y up, metres, right-handed), for the model writers of each game
//! (`relic pack ei-res model.glb`, `relic pack ro-rsm model.glb`, …).
//!
//! The JSON is read with serde into the types below, and every index is checked where it is used. (The
//! `gltf-json` crate was tried first and dropped: its validation indexes arrays with unchecked indices from
//! the file and panics on a hostile one, issue 29's fuzzing.) The binary data is read here too, because a
//! glTF is input like any game file: every accessor is checked against its buffer view and
//! buffer before anything is allocated, and everything decoded (vertex data, images, keys) is charged against
//! the expansion budget of the file's size, per use (two primitives sharing an accessor are charged twice,
//! as they are copied twice).
//!
//! - Nodes keep `matrix` or TRS as written; the node graph must be a forest (glTF 2.0 §3.5.3: a node has
//!   at most one parent, no cycles), else it is refused naming the node.
//! - Each glTF mesh's primitives stay separate; `TRIANGLE_STRIP` and `TRIANGLE_FAN` become triangle lists
//!   (glTF 2.0 §3.7.2.1 gives their vertex order), points and lines are refused naming the mesh. Primitives
//!   without indices get `0..n`.
//! - Attributes kept: `POSITION`, `NORMAL`, `TEXCOORD_0`, `COLOR_0`, `JOINTS_0`, `WEIGHTS_0` (normalized
//!   integer forms are turned into floats); others (`TANGENT`, `TEXCOORD_1`, custom `_NAME`s) are dropped
//!   with one note per kind. Morph targets keep positions and normals; their names come from
//!   `mesh.extras.targetNames` (the convention of Blender and of relic's exporter).
//! - Materials: the base colour factor and texture, alpha mode `BLEND`, double-sided, `KHR_materials_unlit`
//!   and `KHR_texture_transform`. Images are decoded to RGBA when they are PNG; another image type (JPEG)
//!   leaves the material without its texture, noted.
//! - Animations: `CUBICSPLINE` keys keep their values and become linear (their tangents dropped, noted);
//!   key times must not decrease; a key repeated at the same time is kept once (the later value).
//! - `extras` of nodes, meshes, materials, animations and the scene are kept as JSON (relic's exporter
//!   stores format data there; the writers use it when present and never require it).

use std::collections::BTreeMap;
use std::path::{Component, Path};

use base64::Engine as _;

use super::document as json;
use crate::asset::{
    Animation, Channel, ChannelTarget, ChannelValues, Image, Interpolation, Material, Mesh, MorphTarget, Node,
    Primitive, Scene, Skin, Texture, TextureTransform, Transform,
};
use crate::error::{Error, Result};

const FORMAT: &str = "gltf";
/// Deepest node hierarchy read (a hostile file can nest nodes without end; real models stay far below).
const MAX_DEPTH: usize = 256;

/// Reads a glTF file into the shared scene model. `path` names the file (errors, and the folder that
/// external buffers and images of a `.gltf` are read from; none is read from outside it).
pub fn read(content: &[u8], path: &Path) -> Result<Scene> {
    read_noted(content, path, &mut |_| {})
}

/// [`read`], telling `note` once per kind what was dropped or changed (an attribute the scene model has no
/// place for, cubic-spline tangents, a JPEG texture).
pub fn read_noted(content: &[u8], path: &Path, note: &mut dyn FnMut(String)) -> Result<Scene> {
    read_budgeted(content, path, note).map(|(scene, _)| scene)
}

/// [`read_noted`] for `relic pack FORMAT model.glb`: also refuses, before the importer builds anything, a
/// scene whose meshes copied to every node that places them would make more than `--max-expansion` × the
/// glTF's bytes (and those of the buffers and images read beside it); see [`super::cost`].
pub fn read_to_pack(content: &[u8], path: &Path, format: &'static str, note: &mut dyn FnMut(String)) -> Result<Scene> {
    let (scene, budget) = read_budgeted(content, path, note)?;
    super::cost::check_instancing(format, &scene, budget)?;
    Ok(scene)
}

/// The scene and the expansion budget of everything read for it (the glTF and the files beside it).
fn read_budgeted(content: &[u8], path: &Path, note: &mut dyn FnMut(String)) -> Result<(Scene, u64)> {
    let (json_bytes, bin) = split_container(content)?;
    let root = parse_json(json_bytes)?;
    let mut reader = GltfReader {
        root: &root,
        folder: path.parent().unwrap_or(Path::new("")).to_path_buf(),
        buffers: Vec::new(),
        budget: crate::limits::expansion_budget(content.len() as u64),
        spent: 0,
        notes: BTreeMap::new(),
    };
    super::finite::check_document(&root)?;
    reader.load_buffers(bin)?;
    let scene = reader.scene()?;
    for (_, text) in std::mem::take(&mut reader.notes) {
        note(text);
    }
    Ok((scene, reader.budget))
}

/// The JSON chunk and the BIN chunk of a `.glb` (glTF 2.0 §4.4), or the whole file as JSON.
fn split_container(content: &[u8]) -> Result<(&[u8], Option<&[u8]>)> {
    if content.get(..4) != Some(b"glTF") {
        return Ok((content, None));
    }
    let u32_at = |offset: usize| -> Result<u32> {
        content
            .get(offset..offset.saturating_add(4))
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| Error::invalid(FORMAT, "glb header", offset as u64, "the file ends inside the GLB header"))
    };
    let version = u32_at(4)?;
    if version != 2 {
        return Err(Error::invalid(FORMAT, "glb.version", 4, format!("GLB version {version}; glTF 2.0 has version 2")));
    }
    let length = u32_at(8)? as usize;
    if length > content.len() {
        return Err(Error::invalid(
            FORMAT,
            "glb.length",
            8,
            format!("says {length} bytes, the file has {}", content.len()),
        ));
    }
    let mut offset = 12usize;
    let mut json_chunk = None;
    let mut bin_chunk = None;
    while offset < length {
        let chunk_length = u32_at(offset)? as usize;
        let kind = u32_at(offset + 4)?;
        let start = offset + 8;
        let data = start
            .checked_add(chunk_length)
            .filter(|&end| end <= length)
            .and_then(|end| content.get(start..end))
            .ok_or_else(|| {
                Error::invalid(
                    FORMAT,
                    "glb chunk.length",
                    offset as u64,
                    format!("{chunk_length} bytes run past the file"),
                )
            })?;
        match kind {
            0x4E4F_534A if json_chunk.is_none() => json_chunk = Some(data),
            0x004E_4942 if bin_chunk.is_none() => bin_chunk = Some(data),
            _ => {} // glTF 2.0 §4.4.3.1: chunks of unknown types are ignored.
        }
        offset = start + chunk_length.div_ceil(4) * 4;
    }
    let json_chunk = json_chunk.ok_or_else(|| Error::invalid(FORMAT, "glb chunks", 12, "the GLB has no JSON chunk"))?;
    Ok((json_chunk, bin_chunk))
}

/// The glTF JSON, with errors located by JSON path.
fn parse_json(bytes: &[u8]) -> Result<json::Root> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let root: json::Root = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        Error::invalid(FORMAT, if path == "." { "document".into() } else { path }, 0, e.into_inner().to_string())
    })?;
    if let Some(required) = root.extensions_required.iter().find(|e| !SUPPORTED_REQUIRED.contains(&e.as_str())) {
        return Err(Error::Unsupported(format!(
            "glTF input: the file requires the extension {required}, which relic does not read"
        )));
    }
    Ok(root)
}

/// Extensions a file may require and still be read as meant.
const SUPPORTED_REQUIRED: &[&str] = &["KHR_materials_unlit", "KHR_texture_transform"];

struct GltfReader<'a> {
    root: &'a json::Root,
    folder: std::path::PathBuf,
    buffers: Vec<Vec<u8>>,
    budget: u64,
    spent: u64,
    /// One note per kind, by key.
    notes: BTreeMap<String, String>,
}

/// An accessor's items as floats, `N` components each.
type Items<const N: usize> = Vec<[f32; N]>;

/// The bytes of one component of a glTF component type (glTF 2.0 §3.6.2.2), `None` for an unknown type.
fn component_size(component: u32) -> Option<usize> {
    match component {
        5120 | 5121 => Some(1),
        5122 | 5123 => Some(2),
        5125 | 5126 => Some(4),
        _ => None,
    }
}

/// The components of an accessor type.
fn type_components(kind: &str) -> Option<usize> {
    Some(match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        _ => return None,
    })
}

impl GltfReader<'_> {
    fn note(&mut self, kind: &str, text: String) {
        self.notes.entry(kind.to_string()).or_insert(text);
    }

    /// Charges `bytes` decoded against the expansion budget.
    fn charge(&mut self, field: &str, bytes: u64) -> Result<()> {
        self.spent = self.spent.saturating_add(bytes);
        if self.spent > self.budget {
            return Err(Error::limit(
                FORMAT,
                field,
                0,
                format!(
                    "decoding would make {} bytes of a {}-byte budget (--max-expansion raises the limit)",
                    self.spent, self.budget
                ),
            ));
        }
        Ok(())
    }

    fn load_buffers(&mut self, bin: Option<&[u8]>) -> Result<()> {
        for (i, buffer) in self.root.buffers.iter().enumerate() {
            let field = format!("buffers[{i}]");
            let data = match &buffer.uri {
                None if i == 0 => bin
                    .ok_or_else(|| Error::invalid(FORMAT, &field, 0, "has no uri and the file has no GLB BIN chunk"))?
                    .to_vec(),
                None => {
                    return Err(Error::invalid(
                        FORMAT,
                        &field,
                        0,
                        "has no uri (only the first buffer may be the BIN chunk)",
                    ))
                }
                Some(uri) => self.load_uri(&field, uri)?,
            };
            if (data.len() as u64) < buffer.byte_length {
                return Err(Error::invalid(
                    FORMAT,
                    format!("{field}.byteLength"),
                    0,
                    format!("says {} bytes, the data has {}", buffer.byte_length, data.len()),
                ));
            }
            self.buffers.push(data);
        }
        Ok(())
    }

    /// The bytes of a buffer or image URI: a base64 `data:` URI, or a relative path inside the glTF's folder
    /// (percent-decoded; absolute paths, `..`, other schemes and links are refused).
    fn load_uri(&mut self, field: &str, uri: &str) -> Result<Vec<u8>> {
        if let Some(rest) = uri.strip_prefix("data:") {
            let (_, payload) = rest
                .split_once(";base64,")
                .ok_or_else(|| Error::invalid(FORMAT, format!("{field}.uri"), 0, "a data: URI that is not base64"))?;
            self.charge(field, payload.len() as u64 / 4 * 3)?;
            return base64::engine::general_purpose::STANDARD
                .decode(payload)
                .map_err(|e| Error::invalid(FORMAT, format!("{field}.uri"), 0, format!("bad base64: {e}")));
        }
        let (mut file, full) = self.open_beside(field, uri)?;
        let meta = file.metadata().map_err(|e| Error::io(&full, e))?;
        let limit = crate::limits::current().max_entry_size;
        if meta.len() > limit {
            return Err(Error::limit(
                FORMAT,
                format!("{field}.uri"),
                0,
                format!("{} is over {limit} bytes", full.display()),
            ));
        }
        // The bytes read from beside the glTF widen the budget as the glTF's own bytes do.
        self.budget = self.budget.saturating_add(crate::limits::expansion_budget(meta.len()));
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| Error::io(&full, e))?;
        Ok(bytes)
    }

    /// The file a relative URI names inside the glTF's folder, opened. Absolute paths, `..`, other schemes
    /// and links are refused, a link at any component below the folder included (`lnk/secret.bin` with
    /// `lnk` a link to elsewhere): [`crate::paths::open_unlinked`] opens each component without following
    /// links, so the file read is the one checked. The glTF's own folder is the user's choice and may be
    /// reached through links: it is resolved first.
    fn open_beside(&self, field: &str, uri: &str) -> Result<(std::fs::File, std::path::PathBuf)> {
        let relative = percent_decode(uri);
        let relative_path = Path::new(&relative);
        let inside = !relative.contains(':')
            && relative_path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        let plain: std::path::PathBuf =
            relative_path.components().filter(|c| matches!(c, Component::Normal(_))).collect();
        if !inside || plain.as_os_str().is_empty() {
            return Err(Error::Refused(format!(
                "glTF input: {field}.uri `{uri}` is not a file inside the glTF's folder; relic reads only those"
            )));
        }
        let named = if self.folder.as_os_str().is_empty() { Path::new(".") } else { self.folder.as_path() };
        let folder = std::fs::canonicalize(named).map_err(|e| Error::io(named, e))?;
        match crate::paths::open_unlinked(&folder, &plain) {
            Ok(Some(opened)) => Ok(opened),
            Ok(None) => Err(Error::Refused(format!(
                "glTF input: {field}.uri `{uri}`: {} is not there or not a file; relic reads only files",
                self.folder.join(&plain).display()
            ))),
            Err(Error::Refused(why)) => Err(Error::Refused(format!("glTF input: {field}.uri `{uri}`: {why}"))),
            Err(e) => Err(e),
        }
    }

    /// The bytes of a buffer view, and its stride.
    fn view(&self, index: usize, field: &str) -> Result<(&[u8], Option<u64>)> {
        let view = self
            .root
            .buffer_views
            .get(index)
            .ok_or_else(|| Error::invalid(FORMAT, field, 0, format!("bufferView {index} does not exist")))?;
        let buffer = self
            .buffers
            .get(view.buffer)
            .ok_or_else(|| Error::invalid(FORMAT, format!("bufferViews[{index}].buffer"), 0, "no such buffer"))?;
        let start = view.byte_offset;
        let bytes = start
            .checked_add(view.byte_length)
            .and_then(|end| buffer.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?))
            .ok_or_else(|| {
                Error::invalid(
                    FORMAT,
                    format!("bufferViews[{index}]"),
                    start,
                    format!("{} bytes at {start} run past its buffer of {} bytes", view.byte_length, buffer.len()),
                )
            })?;
        Ok((bytes, view.byte_stride))
    }

    /// An accessor's items as floats (`N` = the components of its type), normalized integers scaled as
    /// glTF 2.0 §3.11 says and plain integers converted.
    fn floats<const N: usize>(&mut self, index: usize) -> Result<Items<N>> {
        let field = format!("accessors[{index}]");
        let accessor =
            self.root.accessors.get(index).ok_or_else(|| Error::invalid(FORMAT, &field, 0, "does not exist"))?;
        let components = type_components(&accessor.kind).ok_or_else(|| {
            Error::invalid(FORMAT, format!("{field}.type"), 0, format!("unknown type `{}`", accessor.kind))
        })?;
        if components != N {
            return Err(Error::invalid(
                FORMAT,
                format!("{field}.type"),
                0,
                format!("has {components} components where {N} are due"),
            ));
        }
        let component = accessor.component_type;
        let size = component_size(component).ok_or_else(|| {
            Error::invalid(FORMAT, format!("{field}.componentType"), 0, format!("unknown ({component})"))
        })?;
        let count = usize::try_from(accessor.count).unwrap_or(usize::MAX);
        self.charge(&field, accessor.count.saturating_mul(4 * N as u64))?;
        let mut items: Items<N> = Vec::new();
        if let Some(view_index) = accessor.buffer_view {
            let (bytes, stride) = self.view(view_index, &format!("{field}.bufferView"))?;
            let element = size * N;
            let stride = stride.and_then(|s| usize::try_from(s).ok()).unwrap_or(element).max(element);
            let offset = usize::try_from(accessor.byte_offset).unwrap_or(usize::MAX);
            let needed = if count == 0 {
                Some(0)
            } else {
                (count - 1).checked_mul(stride).and_then(|n| n.checked_add(element)).and_then(|n| n.checked_add(offset))
            };
            if needed.map_or(true, |n| n > bytes.len()) {
                return Err(Error::invalid(
                    FORMAT,
                    &field,
                    accessor.byte_offset,
                    format!(
                        "{count} items of {element} bytes every {stride} run past its bufferView of {} bytes",
                        bytes.len()
                    ),
                ));
            }
            items.reserve_exact(count);
            for i in 0..count {
                let at = offset + i * stride;
                let mut item = [0.0f32; N];
                for (k, slot) in item.iter_mut().enumerate() {
                    let p = at + k * size;
                    *slot = component_value(bytes.get(p..p + size).unwrap_or(&[]), component, accessor.normalized);
                }
                items.push(item);
            }
        } else {
            // No buffer view: zeros (glTF 2.0 §3.6.2.3), then only the sparse values count. Charged above.
            items = vec![[0.0; N]; count];
        }
        if let Some(sparse) = &accessor.sparse {
            self.apply_sparse(&field, sparse, component, accessor.normalized, &mut items)?;
        }
        self.refuse_non_finite(index, &items)?;
        Ok(items)
    }

    /// Refuses an accessor holding NaN or an infinity (see [`super::finite`]), at the byte of the item.
    fn refuse_non_finite<const N: usize>(&self, index: usize, items: &Items<N>) -> Result<()> {
        let Some((item, value)) = super::finite::first_non_finite(items) else { return Ok(()) };
        let accessor = self.root.accessors.get(index);
        let view = accessor.and_then(|a| a.buffer_view).and_then(|v| self.root.buffer_views.get(v));
        let offset = match (accessor, view) {
            (Some(a), Some(v)) => {
                let element = component_size(a.component_type).unwrap_or(4) as u64 * N as u64;
                let stride = v.byte_stride.unwrap_or(element).max(element);
                v.byte_offset.saturating_add(a.byte_offset).saturating_add((item as u64).saturating_mul(stride))
            }
            _ => 0,
        };
        Err(super::finite::non_finite_item(self.root, index, item, value, offset))
    }

    fn apply_sparse<const N: usize>(
        &self,
        field: &str,
        sparse: &json::Sparse,
        component: u32,
        normalized: bool,
        items: &mut Items<N>,
    ) -> Result<()> {
        let count = usize::try_from(sparse.count).unwrap_or(usize::MAX);
        let index_type = sparse.indices.component_type;
        let index_size =
            component_size(index_type).filter(|_| matches!(index_type, 5121 | 5123 | 5125)).ok_or_else(|| {
                Error::invalid(FORMAT, format!("{field}.sparse.indices.componentType"), 0, "not an index type")
            })?;
        let value_component = component_size(component).unwrap_or(4);
        let (index_bytes, _) = self.view(sparse.indices.buffer_view, &format!("{field}.sparse.indices"))?;
        let index_offset = usize::try_from(sparse.indices.byte_offset).unwrap_or(usize::MAX);
        let (value_bytes, _) = self.view(sparse.values.buffer_view, &format!("{field}.sparse.values"))?;
        let value_offset = usize::try_from(sparse.values.byte_offset).unwrap_or(usize::MAX);
        let value_size = value_component * N;
        let fits = |bytes: &[u8], offset: usize, size: usize| {
            count.checked_mul(size).and_then(|n| n.checked_add(offset)).is_some_and(|n| n <= bytes.len())
        };
        if !fits(index_bytes, index_offset, index_size) || !fits(value_bytes, value_offset, value_size) {
            return Err(Error::invalid(
                FORMAT,
                format!("{field}.sparse"),
                0,
                format!("{count} values run past their views"),
            ));
        }
        for i in 0..count {
            let p = index_offset + i * index_size;
            let target = component_value(index_bytes.get(p..p + index_size).unwrap_or(&[]), index_type, false) as usize;
            let slot = items.get_mut(target).ok_or_else(|| {
                Error::invalid(
                    FORMAT,
                    format!("{field}.sparse.indices[{i}]"),
                    0,
                    format!("{target} is past the accessor's count"),
                )
            })?;
            for (k, value) in slot.iter_mut().enumerate() {
                let p = value_offset + i * value_size + k * value_component;
                *value = component_value(value_bytes.get(p..p + value_component).unwrap_or(&[]), component, normalized);
            }
        }
        Ok(())
    }

    /// Index data (any integer component type), each checked against the vertex count.
    fn indices(&mut self, index: usize, vertex_count: usize, field: &str) -> Result<Vec<u32>> {
        let items = self.floats::<1>(index)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, [v]) in items.into_iter().enumerate() {
            if !(v >= 0.0 && (v as usize) < vertex_count) || v.fract() != 0.0 {
                return Err(Error::invalid(
                    FORMAT,
                    format!("{field}.indices[{i}]"),
                    0,
                    format!("{v} is not a vertex of the primitive's {vertex_count}"),
                ));
            }
            out.push(v as u32);
        }
        Ok(out)
    }

    fn scene(&mut self) -> Result<Scene> {
        let root = self.root;
        let mut scene = Scene::default();
        for (i, texture) in root.textures.iter().enumerate() {
            let texture = self.texture(i, texture)?;
            scene.textures.push(texture);
        }
        for (i, material) in root.materials.iter().enumerate() {
            let material = self.material(i, material, &scene.textures)?;
            scene.materials.push(material);
        }
        for (i, mesh) in root.meshes.iter().enumerate() {
            let mesh = self.mesh(i, mesh)?;
            scene.meshes.push(mesh);
        }
        for (i, n) in root.nodes.iter().enumerate() {
            if n.mesh.is_some_and(|m| m >= root.meshes.len()) || n.skin.is_some_and(|s| s >= root.skins.len()) {
                return Err(Error::invalid(
                    FORMAT,
                    format!("nodes[{i}]"),
                    0,
                    "names a mesh or skin that does not exist",
                ));
            }
            scene.nodes.push(node(i, n));
        }
        scene.roots = self.roots()?;
        for (i, skin) in root.skins.iter().enumerate() {
            if let Some(j) = skin.joints.iter().find(|&&j| j >= root.nodes.len()) {
                return Err(Error::invalid(
                    FORMAT,
                    format!("skins[{i}].joints"),
                    0,
                    format!("node {j} does not exist"),
                ));
            }
            let joints = skin.joints.clone();
            let inverse_bind_matrices = match skin.inverse_bind_matrices {
                Some(accessor) => {
                    let matrices = self.floats::<16>(accessor)?;
                    if matrices.len() < joints.len() {
                        return Err(Error::invalid(
                            FORMAT,
                            format!("skins[{i}].inverseBindMatrices"),
                            0,
                            format!("{} matrices for {} joints", matrices.len(), joints.len()),
                        ));
                    }
                    matrices
                }
                None => {
                    self.charge(&format!("skins[{i}]"), joints.len() as u64 * 64)?;
                    vec![identity(); joints.len()]
                }
            };
            scene.skins.push(Skin { joints, inverse_bind_matrices });
        }
        for (i, animation) in root.animations.iter().enumerate() {
            let animation = self.animation(i, animation, &scene)?;
            scene.animations.push(animation);
        }
        let chosen = root.scene.unwrap_or(0);
        if let Some(s) = root.scenes.get(chosen) {
            scene.extras = s.extras.clone();
        }
        Ok(scene)
    }

    /// The root nodes of the scene to read (`scene`, else the first, else every node without a parent),
    /// after checking that the node graph is a forest no deeper than [`MAX_DEPTH`].
    fn roots(&self) -> Result<Vec<usize>> {
        let nodes = &self.root.nodes;
        let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            for &c in &n.children {
                match parent.get_mut(c) {
                    Some(slot @ None) if c != i => *slot = Some(i),
                    Some(_) => {
                        return Err(Error::invalid(
                            FORMAT,
                            format!("nodes[{i}].children"),
                            0,
                            format!("node {c} has two parents or is its own child (glTF 2.0 §3.5.3: nodes form trees)"),
                        ))
                    }
                    None => {
                        return Err(Error::invalid(
                            FORMAT,
                            format!("nodes[{i}].children"),
                            0,
                            format!("node {c} does not exist"),
                        ))
                    }
                }
            }
        }
        // Depth by walking up, each node once: with one parent each, a walk that meets itself is a cycle.
        const UNKNOWN: usize = usize::MAX;
        const VISITING: usize = usize::MAX - 1;
        let mut depth: Vec<usize> = vec![UNKNOWN; nodes.len()];
        let mut chain = Vec::new();
        for start in 0..nodes.len() {
            chain.clear();
            let mut at = start;
            let base = loop {
                match depth.get(at).copied() {
                    Some(UNKNOWN) => {}
                    Some(VISITING) => {
                        return Err(Error::invalid(
                            FORMAT,
                            format!("nodes[{at}]"),
                            0,
                            "is its own ancestor (a cycle of children)",
                        ))
                    }
                    Some(d) => break d + 1,
                    None => break 0,
                }
                if let Some(slot) = depth.get_mut(at) {
                    *slot = VISITING;
                }
                chain.push(at);
                match parent.get(at).copied().flatten() {
                    Some(p) => at = p,
                    None => break 0,
                }
            };
            for (k, &n) in chain.iter().rev().enumerate() {
                let d = base + k;
                if d > MAX_DEPTH {
                    return Err(Error::limit(
                        FORMAT,
                        format!("nodes[{n}]"),
                        0,
                        format!("nested deeper than {MAX_DEPTH} nodes"),
                    ));
                }
                if let Some(slot) = depth.get_mut(n) {
                    *slot = d;
                }
            }
        }
        let listed = self.root.scene.or(if self.root.scenes.is_empty() { None } else { Some(0) });
        let roots: Vec<usize> = match listed {
            Some(s) => {
                let scene = self
                    .root
                    .scenes
                    .get(s)
                    .ok_or_else(|| Error::invalid(FORMAT, "scene", 0, format!("scene {s} does not exist")))?;
                scene.nodes.clone()
            }
            None => (0..nodes.len()).filter(|&n| parent.get(n) == Some(&None)).collect(),
        };
        for &r in &roots {
            if parent.get(r).map_or(true, |p| p.is_some()) {
                return Err(Error::invalid(
                    FORMAT,
                    "scenes.nodes",
                    0,
                    format!("node {r} is a child or does not exist"),
                ));
            }
        }
        Ok(roots)
    }

    fn texture(&mut self, index: usize, texture: &json::Texture) -> Result<Texture> {
        let image_index = texture
            .source
            .ok_or_else(|| Error::invalid(FORMAT, format!("textures[{index}].source"), 0, "is missing (no image)"))?;
        let field = format!("images[{image_index}]");
        let image = self
            .root
            .images
            .get(image_index)
            .ok_or_else(|| Error::invalid(FORMAT, format!("textures[{index}].source"), 0, "no such image"))?;
        let name = image
            .name
            .clone()
            .or_else(|| image.uri.as_deref().filter(|u| !u.starts_with("data:")).map(|u| stem(&percent_decode(u))))
            .or_else(|| texture.name.clone())
            .unwrap_or_else(|| format!("image{image_index}"));
        let bytes = match (&image.uri, image.buffer_view) {
            (Some(uri), _) => self.load_uri(&field, uri)?,
            (None, Some(view)) => self.view(view, &format!("{field}.bufferView"))?.0.to_vec(),
            (None, None) => return Err(Error::invalid(FORMAT, field, 0, "has neither uri nor bufferView")),
        };
        if !bytes.starts_with(b"\x89PNG") {
            self.note(
                "image type",
                format!("glTF input: image `{name}` is not a PNG (JPEG?); relic reads PNG textures only, so it was left out"),
            );
            return Ok(Texture { name, image: Image::default() });
        }
        let decoded = crate::export::png::decode_rgba(&bytes).map_err(|e| e.within(field.clone()))?;
        self.charge(&field, decoded.frames.iter().map(|f| u64::from(f.width) * u64::from(f.height) * 4).sum())?;
        Ok(Texture { name, image: decoded })
    }

    fn material(&mut self, index: usize, m: &json::Material, textures: &[Texture]) -> Result<Material> {
        let pbr = &m.pbr_metallic_roughness;
        let info = pbr.base_color_texture.as_ref();
        if let Some(info) = info {
            if info.index >= textures.len() {
                return Err(Error::invalid(
                    FORMAT,
                    format!("materials[{index}].pbrMetallicRoughness.baseColorTexture.index"),
                    0,
                    format!("texture {} does not exist", info.index),
                ));
            }
            if info.tex_coord != 0 {
                self.note(
                    "uv set",
                    format!("glTF input: material {index} reads TEXCOORD_{}; relic keeps UV set 0", info.tex_coord),
                );
            }
        }
        let texture = info.map(|i| i.index).filter(|&t| textures.get(t).is_some_and(|t| !t.image.frames.is_empty()));
        let texture_transform = info.and_then(|i| i.extensions.transform.as_ref()).map(|t| TextureTransform {
            offset: t.offset,
            rotation: t.rotation,
            scale: t.scale,
        });
        Ok(Material {
            name: m.name.clone().unwrap_or_else(|| format!("material{index}")),
            base_color: pbr.base_color_factor,
            texture,
            texture_transform,
            double_sided: m.double_sided,
            alpha_blend: m.alpha_mode.as_deref() == Some("BLEND"),
            unlit: m.extensions.unlit.is_some(),
            roughness: pbr.roughness_factor,
            extras: m.extras.clone(),
        })
    }

    fn mesh(&mut self, index: usize, m: &json::Mesh) -> Result<Mesh> {
        let name = m.name.clone().unwrap_or_else(|| format!("mesh{index}"));
        let target_names: Vec<String> = m
            .extras
            .get("targetNames")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect())
            .unwrap_or_default();
        let mut primitives = Vec::with_capacity(m.primitives.len().min(1024));
        for (p, primitive) in m.primitives.iter().enumerate() {
            let field = format!("meshes[{index}] `{name}` primitives[{p}]");
            primitives.push(self.primitive(&field, primitive, &target_names)?);
        }
        Ok(Mesh { name, primitives, extras: m.extras.clone() })
    }

    fn primitive(&mut self, field: &str, p: &json::Primitive, target_names: &[String]) -> Result<Primitive> {
        // glTF 2.0 §5.24.4: 0 points, 1 lines, 2 line loop, 3 line strip, 4 triangles, 5 strip, 6 fan.
        match p.mode {
            4..=6 => {}
            0..=3 => {
                return Err(Error::Unsupported(format!(
                    "glTF input: {field} draws {} (mode {}); the games' models are made of triangles only",
                    if p.mode == 0 { "points" } else { "lines" },
                    p.mode
                )))
            }
            other => return Err(Error::invalid(FORMAT, format!("{field}.mode"), 0, format!("unknown mode {other}"))),
        }
        if p.material.is_some_and(|m| m >= self.root.materials.len()) {
            return Err(Error::invalid(FORMAT, format!("{field}.material"), 0, "no such material"));
        }
        let mut out = Primitive { material: p.material, ..Default::default() };
        let position = p
            .attributes
            .get("POSITION")
            .ok_or_else(|| Error::invalid(FORMAT, format!("{field}.attributes"), 0, "has no POSITION"))?;
        out.positions = self.floats::<3>(*position)?;
        for (semantic, &accessor) in &p.attributes {
            match semantic.as_str() {
                "POSITION" => {}
                "NORMAL" => out.normals = self.floats::<3>(accessor)?,
                "TEXCOORD_0" => out.uvs = self.floats::<2>(accessor)?,
                "COLOR_0" => out.colors = self.colors(accessor)?,
                "JOINTS_0" => {
                    out.joints = self
                        .floats::<4>(accessor)?
                        .into_iter()
                        .map(|j| j.map(|v| v.clamp(0.0, 65535.0) as u16))
                        .collect()
                }
                "WEIGHTS_0" => out.weights = self.floats::<4>(accessor)?,
                other => {
                    let kind = other.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches('_');
                    self.note(
                        &format!("attribute {kind}"),
                        format!("glTF input: attribute {other} has no place in the game formats; dropped"),
                    );
                }
            }
        }
        let n = out.positions.len();
        for (what, len) in [
            ("NORMAL", out.normals.len()),
            ("TEXCOORD_0", out.uvs.len()),
            ("COLOR_0", out.colors.len()),
            ("JOINTS_0", out.joints.len()),
            ("WEIGHTS_0", out.weights.len()),
        ] {
            if len != 0 && len != n {
                return Err(Error::invalid(
                    FORMAT,
                    format!("{field}.attributes.{what}"),
                    0,
                    format!("has {len} items for {n} positions"),
                ));
            }
        }
        let listed = match p.indices {
            Some(i) => self.indices(i, n, field)?,
            None => (0..n as u32).collect(),
        };
        note_partial_triangle(self, field, p.mode, listed.len());
        out.indices = triangulate(p.mode, listed);
        for (t, target) in p.targets.iter().enumerate() {
            let positions = match target.get("POSITION") {
                Some(&a) => self.floats::<3>(a)?,
                None => {
                    self.charge(field, n as u64 * 12)?;
                    vec![[0.0; 3]; n]
                }
            };
            let normals = match target.get("NORMAL") {
                Some(&a) => self.floats::<3>(a)?,
                None => Vec::new(),
            };
            if positions.len() != n || (!normals.is_empty() && normals.len() != n) {
                return Err(Error::invalid(
                    FORMAT,
                    format!("{field}.targets[{t}]"),
                    0,
                    format!("does not have {n} items"),
                ));
            }
            let name = target_names.get(t).cloned().unwrap_or_else(|| format!("target{t}"));
            out.morph_targets.push(MorphTarget { name, positions, normals });
        }
        Ok(out)
    }

    /// `COLOR_0` as RGBA (an RGB accessor gets alpha 1).
    fn colors(&mut self, accessor: usize) -> Result<Vec<[f32; 4]>> {
        let is_rgb = self.root.accessors.get(accessor).is_some_and(|a| a.kind == "VEC3");
        if is_rgb {
            Ok(self.floats::<3>(accessor)?.into_iter().map(|[r, g, b]| [r, g, b, 1.0]).collect())
        } else {
            self.floats::<4>(accessor)
        }
    }

    fn animation(&mut self, index: usize, a: &json::Animation, scene: &Scene) -> Result<Animation> {
        let name = a.name.clone().unwrap_or_else(|| format!("animation{index}"));
        let mut channels = Vec::with_capacity(a.channels.len().min(4096));
        for (c, channel) in a.channels.iter().enumerate() {
            let field = format!("animations[{index}] `{name}` channels[{c}]");
            let Some(node) = channel.target.node else {
                // KHR_animation_pointer (animated texture transforms): no node to move.
                self.note(
                    "pointer",
                    "glTF input: animations of material properties (KHR_animation_pointer) are left out".into(),
                );
                continue;
            };
            if node >= scene.nodes.len() {
                return Err(Error::invalid(
                    FORMAT,
                    format!("{field}.target.node"),
                    0,
                    format!("node {node} does not exist"),
                ));
            }
            let sampler = a
                .samplers
                .get(channel.sampler)
                .ok_or_else(|| Error::invalid(FORMAT, format!("{field}.sampler"), 0, "no such sampler"))?;
            let (interpolation, cubic) = match sampler.interpolation.as_deref() {
                Some("STEP") => (Interpolation::Step, false),
                Some("CUBICSPLINE") => (Interpolation::Linear, true),
                None | Some("LINEAR") => (Interpolation::Linear, false),
                Some(other) => {
                    return Err(Error::invalid(
                        FORMAT,
                        format!("{field}.interpolation"),
                        0,
                        format!("unknown `{other}`"),
                    ))
                }
            };
            if cubic {
                self.note(
                    "cubic",
                    "glTF input: cubic-spline keys become linear keys (their tangents are dropped)".into(),
                );
            }
            let times: Vec<f32> = self.floats::<1>(sampler.input)?.into_iter().map(|[t]| t).collect();
            if times.windows(2).any(|w| w[1] < w[0]) || times.iter().any(|t| !t.is_finite()) {
                return Err(Error::invalid(
                    FORMAT,
                    format!("{field}.input"),
                    0,
                    "key times decrease or are not numbers",
                ));
            }
            let keys = times.len();
            // A cubic spline stores (in-tangent, value, out-tangent) per key (glTF 2.0 Appendix C).
            let pick = |count: usize, per_key: usize| -> Result<Vec<usize>> {
                let group = if cubic { 3 * per_key } else { per_key };
                if keys.checked_mul(group) != Some(count) {
                    return Err(Error::invalid(
                        FORMAT,
                        format!("{field}.output"),
                        0,
                        format!("has {count} values for {keys} keys"),
                    ));
                }
                Ok((0..keys).map(|k| k * group + if cubic { per_key } else { 0 }).collect())
            };
            let output = sampler.output;
            let values = match channel.target.path.as_str() {
                "translation" => {
                    let v = self.floats::<3>(output)?;
                    ChannelValues::Translation(
                        pick(v.len(), 1)?.into_iter().filter_map(|i| v.get(i).copied()).collect(),
                    )
                }
                "scale" => {
                    let v = self.floats::<3>(output)?;
                    ChannelValues::Scale(pick(v.len(), 1)?.into_iter().filter_map(|i| v.get(i).copied()).collect())
                }
                "rotation" => {
                    let v = self.floats::<4>(output)?;
                    ChannelValues::Rotation(pick(v.len(), 1)?.into_iter().filter_map(|i| v.get(i).copied()).collect())
                }
                "weights" => {
                    let targets = morph_target_count(scene, node);
                    if targets == 0 {
                        return Err(Error::invalid(
                            FORMAT,
                            format!("{field}.target"),
                            0,
                            "animates the weights of a node without morph targets",
                        ));
                    }
                    let v = self.floats::<1>(output)?;
                    let starts = pick(v.len(), targets)?;
                    ChannelValues::MorphWeights(
                        starts
                            .into_iter()
                            .map(|s| v.get(s..s + targets).unwrap_or(&[]).iter().map(|[w]| *w).collect())
                            .collect(),
                    )
                }
                other => {
                    return Err(Error::invalid(
                        FORMAT,
                        format!("{field}.target.path"),
                        0,
                        format!("unknown path `{other}`"),
                    ))
                }
            };
            let (times, values) = dedupe_times(times, values);
            channels.push(Channel { target: ChannelTarget::Node(node), times, values, interpolation });
        }
        Ok(Animation { name, channels, extras: a.extras.clone() })
    }
}

/// The node as the scene model holds it.
fn node(index: usize, n: &json::Node) -> Node {
    let transform = match n.matrix {
        Some(m) => Transform::Matrix(m),
        None => Transform::Trs {
            translation: n.translation.unwrap_or([0.0; 3]),
            rotation: n.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]),
            scale: n.scale.unwrap_or([1.0; 3]),
        },
    };
    Node {
        name: n.name.clone().unwrap_or_else(|| format!("node{index}")),
        transform,
        children: n.children.clone(),
        mesh: n.mesh,
        skin: n.skin,
        light: None,
        extras: n.extras.clone(),
    }
}

/// How many morph targets the node's mesh has (its first primitive's; glTF requires all to agree).
fn morph_target_count(scene: &Scene, node: usize) -> usize {
    scene
        .nodes
        .get(node)
        .and_then(|n| n.mesh)
        .and_then(|m| scene.meshes.get(m))
        .and_then(|m| m.primitives.first())
        .map_or(0, |p| p.morph_targets.len())
}

/// Keys at the same time collapse into the later one: the scene model keeps times strictly increasing.
fn dedupe_times(times: Vec<f32>, values: ChannelValues) -> (Vec<f32>, ChannelValues) {
    if times.windows(2).all(|w| w[0] < w[1]) {
        return (times, values);
    }
    let keep: Vec<bool> =
        times.iter().enumerate().map(|(i, t)| times.get(i + 1).map_or(true, |next| next > t)).collect();
    fn filter<T>(v: Vec<T>, keep: &[bool]) -> Vec<T> {
        v.into_iter().zip(keep).filter(|(_, k)| **k).map(|(v, _)| v).collect()
    }
    let values = match values {
        ChannelValues::Translation(v) => ChannelValues::Translation(filter(v, &keep)),
        ChannelValues::Rotation(v) => ChannelValues::Rotation(filter(v, &keep)),
        ChannelValues::Scale(v) => ChannelValues::Scale(filter(v, &keep)),
        ChannelValues::MorphWeights(v) => ChannelValues::MorphWeights(filter(v, &keep)),
        ChannelValues::Vec2(v) => ChannelValues::Vec2(filter(v, &keep)),
        ChannelValues::Scalar(v) => ChannelValues::Scalar(filter(v, &keep)),
    };
    (filter(times, &keep), values)
}

/// A triangle list (mode 4) whose index count is no multiple of 3 loses its last 1 or 2 indices: noted,
/// naming the primitive (the first such; glTF 2.0 §3.7.2.1 makes the count a multiple of 3).
fn note_partial_triangle(reader: &mut GltfReader<'_>, field: &str, mode: u32, indices: usize) {
    if mode == 4 && indices % 3 != 0 {
        let left = indices % 3;
        reader.note(
            "partial triangle",
            format!("glTF input: {field}: {indices} indices are no whole triangles; the last {left} dropped"),
        );
    }
}

/// Triangle lists from strips (mode 5) and fans (mode 6) (glTF 2.0 §3.7.2.1); a list (mode 4) loses a
/// trailing partial triangle.
fn triangulate(mode: u32, indices: Vec<u32>) -> Vec<u32> {
    match mode {
        5 => {
            let mut out = Vec::with_capacity(indices.len().saturating_sub(2) * 3);
            for (i, w) in indices.windows(3).enumerate() {
                // Every other triangle of a strip is flipped to keep the winding.
                if let [a, b, c] = *w {
                    out.extend_from_slice(&if i % 2 == 0 { [a, b, c] } else { [b, a, c] });
                }
            }
            out
        }
        6 => {
            let Some((&first, rest)) = indices.split_first() else { return Vec::new() };
            let mut out = Vec::with_capacity(rest.len().saturating_sub(1) * 3);
            for w in rest.windows(2) {
                if let [b, c] = *w {
                    out.extend_from_slice(&[first, b, c]);
                }
            }
            out
        }
        _ => {
            let mut indices = indices;
            indices.truncate(indices.len() / 3 * 3);
            indices
        }
    }
}

/// One component as a float: normalized integers scaled to 0..1 (or −1..1, glTF 2.0 §3.11), others as
/// their value.
fn component_value(bytes: &[u8], component: u32, normalized: bool) -> f32 {
    let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
    match component {
        5126 => f32::from_le_bytes([b(0), b(1), b(2), b(3)]),
        5121 if normalized => f32::from(b(0)) / 255.0,
        5121 => f32::from(b(0)),
        5120 if normalized => (f32::from(b(0) as i8) / 127.0).max(-1.0),
        5120 => f32::from(b(0) as i8),
        5123 if normalized => f32::from(u16::from_le_bytes([b(0), b(1)])) / 65535.0,
        5123 => f32::from(u16::from_le_bytes([b(0), b(1)])),
        5122 if normalized => (f32::from(i16::from_le_bytes([b(0), b(1)])) / 32767.0).max(-1.0),
        5122 => f32::from(i16::from_le_bytes([b(0), b(1)])),
        5125 => u32::from_le_bytes([b(0), b(1), b(2), b(3)]) as f32,
        _ => 0.0,
    }
}

fn identity() -> [f32; 16] {
    [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
}

/// `%20` and the like decoded (glTF URIs are RFC 3986); an invalid escape is kept as written.
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |k: usize| bytes.get(k).and_then(|c| (*c as char).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A file name without folders or extension.
fn stem(path: &str) -> String {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    base.rsplit_once('.').map_or(base, |(s, _)| s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_become_lists_keeping_their_winding() {
        assert_eq!(triangulate(5, vec![0, 1, 2, 3]), vec![0, 1, 2, 2, 1, 3]);
        assert_eq!(triangulate(6, vec![0, 1, 2, 3]), vec![0, 1, 2, 0, 2, 3]);
        assert_eq!(triangulate(4, vec![0, 1, 2, 3]), vec![0, 1, 2]);
    }

    #[test]
    fn percent_escapes_are_decoded() {
        assert_eq!(percent_decode("my%20model.bin"), "my model.bin");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(stem("textures/wall%20a.png"), "wall%20a");
    }
}

//! What a conversion needs beyond the stored fields: each mesh's textures resolved to names, the mesh tree
//! (parents by name, roots, children) and the time base of key frames.
//!
//! Names are compared by their decoded text, exactly (case and spaces count). Mesh names can repeat: a
//! parent name refers to the **first** mesh of that name other than the mesh itself, so later meshes with
//! a repeated name can have children only through that first one (as other readers do). A link that
//! would close a cycle is cut (links are taken in mesh order), so the tree is always a forest.

use super::types::*;

/// How key frame times and `animation_length` are counted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeBase {
    /// Below 2.2: milliseconds.
    Milliseconds,
    /// From 2.2 on: frames at this rate (frames per second, as stored).
    Frames { fps: f32 },
}

impl TimeBase {
    /// Frame rate used when a 2.2+ file stores one that is not a positive finite number.
    pub const DEFAULT_FPS: f32 = 30.0;

    /// A key time in seconds.
    pub fn seconds(self, time: i32) -> f64 {
        match self {
            TimeBase::Milliseconds => f64::from(time) / 1000.0,
            TimeBase::Frames { fps } => f64::from(time) / f64::from(Self::usable_fps(fps)),
        }
    }

    fn usable_fps(fps: f32) -> f32 {
        if fps.is_finite() && fps > 0.0 {
            fps
        } else {
            Self::DEFAULT_FPS
        }
    }
}

impl Rsm {
    /// `(major, minor)`.
    pub fn version_tuple(&self) -> (u8, u8) {
        self.version.tuple()
    }

    /// Milliseconds below 2.2, frames at [`Rsm::frame_rate`] from 2.2 on (30 fps when the stored rate is
    /// missing, zero, negative or not finite).
    pub fn time_base(&self) -> TimeBase {
        match self.frame_rate {
            Some(fps) if self.version.is_rsm2() => TimeBase::Frames { fps: TimeBase::usable_fps(fps) },
            _ => TimeBase::Milliseconds,
        }
    }

    /// The loop period in seconds.
    pub fn animation_seconds(&self) -> f64 {
        self.time_base().seconds(self.animation_length)
    }

    /// The names of a mesh's textures, in the order faces index them (`Face::texture`): the global
    /// textures picked by `texture_indices` below 2.3 (`None` for an index out of range), the mesh's own
    /// textures in 2.3.
    pub fn mesh_textures<'a>(&'a self, mesh: &'a Mesh) -> Vec<Option<&'a Name>> {
        if self.version.has_mesh_textures() {
            mesh.textures.iter().map(Some).collect()
        } else {
            mesh.texture_indices.iter().map(|&i| usize::try_from(i).ok().and_then(|i| self.textures.get(i))).collect()
        }
    }

    /// The texture a face uses, if its index resolves.
    pub fn face_texture<'a>(&'a self, mesh: &'a Mesh, face: &Face) -> Option<&'a Name> {
        self.mesh_textures(mesh).get(usize::from(face.texture)).copied().flatten()
    }

    /// Every texture name the model uses, each once, in order of first use (global list below 2.3, the
    /// meshes' lists in 2.3).
    pub fn texture_names(&self) -> Vec<&Name> {
        let all: Box<dyn Iterator<Item = &Name>> = if self.version.has_mesh_textures() {
            Box::new(self.meshes.iter().flat_map(|m| m.textures.iter()))
        } else {
            Box::new(self.textures.iter())
        };
        let mut out: Vec<&Name> = Vec::new();
        for n in all {
            if !out.iter().any(|o| o.text == n.text) {
                out.push(n);
            }
        }
        out
    }

    /// The first mesh named `name`.
    pub fn find_mesh(&self, name: &str) -> Option<usize> {
        self.meshes.iter().position(|m| m.name.text == name)
    }

    /// The mesh a mesh's `parent_name` refers to: the first other mesh of that name; `None` when the name
    /// is empty or not found. (No cycle check: see [`Rsm::parents`].)
    pub fn parent_of(&self, index: usize) -> Option<usize> {
        let parent = &self.meshes.get(index)?.parent_name.text;
        if parent.is_empty() {
            return None;
        }
        self.meshes.iter().enumerate().position(|(j, m)| j != index && m.name.text == *parent)
    }

    /// The roots. From 2.2 on: the meshes whose parent name is empty or names no other mesh. Below 2.2:
    /// the first mesh named by the main mesh name (`root_names[0]`), or, when no mesh has that name, the
    /// meshes found as from 2.2 on. Meshes left out of the tree by a cut cycle are roots too.
    pub fn roots(&self) -> Vec<usize> {
        let parents = self.parents();
        (0..self.meshes.len()).filter(|&i| parents.get(i).copied().flatten().is_none()).collect()
    }

    /// Each mesh's parent in the tree a conversion should build: [`Rsm::parent_of`], except that below 2.2
    /// only the main mesh is a root when it exists (other meshes without a parent are then roots too, but
    /// the main mesh never gets a parent), and links that would close a cycle are cut, in mesh order.
    pub fn parents(&self) -> Vec<Option<usize>> {
        let main =
            if self.version.is_rsm2() { None } else { self.root_names.first().and_then(|n| self.find_mesh(&n.text)) };
        let mut parents: Vec<Option<usize>> = vec![None; self.meshes.len()];
        for i in 0..self.meshes.len() {
            if Some(i) == main {
                continue;
            }
            let Some(p) = self.parent_of(i) else { continue };
            // Would i become its own ancestor? Walk up from p through links kept so far.
            let mut at = Some(p);
            let mut steps = 0;
            while let Some(a) = at {
                if a == i || steps > self.meshes.len() {
                    break;
                }
                at = parents.get(a).copied().flatten();
                steps += 1;
            }
            if at.is_none() {
                if let Some(slot) = parents.get_mut(i) {
                    *slot = Some(p);
                }
            }
        }
        parents
    }

    /// Each mesh's children in mesh order, following [`Rsm::parents`].
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut children = vec![Vec::new(); self.meshes.len()];
        for (i, p) in self.parents().into_iter().enumerate() {
            if let Some(list) = p.and_then(|p| children.get_mut(p)) {
                list.push(i);
            }
        }
        children
    }
}

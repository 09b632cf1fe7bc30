//! Evil Islands figures as glTF: a `.mod` model (a RES whose entry named after the model is the LNK and
//! whose other entries are FIG parts, docs/formats/evil-islands.md#model-archives), its `.bon` bone offsets and `.anm` animations
//! (RES archives found beside it, or `--bones` / `--anims`), and its texture (`<model>.mmp` beside it or in
//! `--textures`), assembled into one scene: the LNK hierarchy as nodes placed by their bone offsets, one
//! mesh per part with the morph extremes as morph targets, one clip per animation.
//!
//! - Morphs: the base mesh and the bone offsets are the spec's trilinear blend (`val[0..8]`, `coefs`) at
//!   `--morph STR,DEX,HEIGHT` (default 0,0,0), taking STR as `coefs[0]`, DEX as `coefs[1]` and HEIGHT as
//!   `coefs[2]` (which of strength and dexterity is which is unsettled, docs/formats/evil-islands.md#fig-morphs); each extreme is a
//!   morph target holding its difference from the base, so weight 1 on target m shows extreme m.
//! - Axes: the game is Z-up; [`to_gltf`] turns `(x, y, z)` into glTF's Y-up `(x, z, −y)` (a rotation, so
//!   quaternions turn the same way), in this one place.
//! - Animations: an `.anm` RES holds one RES per animation, whose entries are parts (ANM files); an
//!   `.anm` RES whose entries are ANM files is one animation. Keys are at 15 frames per second: no file
//!   states a rate; docs/formats/evil-islands.md#anm-frame-rate reports that one engine re-implementation assumes 15. ANM rotations
//!   are stored w, x, y, z and become glTF's x, y, z, w; translations replace the bone offset while the
//!   clip plays. Morphing frames become morph targets of their own, one per frame, whose weights the clip
//!   steps through, when their vertex count is the part's position count (else they are left out, noted).

pub mod import;
mod maths;
pub mod scene;
mod write;

use std::path::Path;

use crate::asset::{Asset, NamedAsset};
use crate::codec::text::{decode, CP1251};
use crate::error::{Error, Result};
use crate::evil_islands::{anm, bon, fig, lnk, mmp, res};
use crate::registry::ConvertOptions;

pub use scene::{to_gltf, to_scene};

/// The settings of an Evil Islands figure's conversion, given in [`ConvertOptions::typed_settings`]
/// (`relic convert --bones --anims --morph`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FigureSettings {
    /// The bone offsets given by the user (`--bones`), instead of the `.bon` found beside the model.
    pub bones: Option<std::path::PathBuf>,
    /// The animations given by the user (`--anims`), instead of the `.anm` found beside the model.
    pub anims: Option<std::path::PathBuf>,
    /// The morph (`--morph STR,DEX,HEIGHT`, each 0..1; 0,0,0 when absent).
    pub morph: Option<[f32; 3]>,
}

impl FigureSettings {
    /// The settings in `opts`, none when not given.
    pub fn of(opts: &ConvertOptions) -> &FigureSettings {
        static NONE: FigureSettings = FigureSettings { bones: None, anims: None, morph: None };
        opts.settings_of::<FigureSettings>().unwrap_or(&NONE)
    }

    /// The morph drawn: `--morph`, else 0,0,0.
    pub fn morph(opts: &ConvertOptions) -> [f32; 3] {
        FigureSettings::of(opts).morph.unwrap_or([0.0; 3])
    }
}

/// One animation: its name and an ANM per part name.
pub type Clip = (String, Vec<(String, anm::Anm)>);

/// A figure and what it is drawn with.
#[derive(Debug, Clone, Default)]
pub struct Figure {
    pub name: String,
    pub lnk: lnk::Lnk,
    /// FIG parts by entry name, in RES order.
    pub parts: Vec<(String, fig::Fig)>,
    /// Bone offsets by part name.
    pub bones: Vec<(String, bon::Bon)>,
    /// Animations: (clip name, ANM by part name).
    pub animations: Vec<Clip>,
    pub texture: Option<crate::asset::Image>,
}

impl Figure {
    pub fn part(&self, name: &str) -> Option<&fig::Fig> {
        find(&self.parts, name)
    }

    pub fn bone(&self, name: &str) -> Option<&bon::Bon> {
        find(&self.bones, name)
    }
}

/// The value named `name` (exactly, else ignoring ASCII case: RES names are matched that way).
pub fn find<'v, T>(list: &'v [(String, T)], name: &str) -> Option<&'v T> {
    list.iter()
        .find(|(n, _)| n == name)
        .or_else(|| list.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)))
        .map(|(_, v)| v)
}

/// The stem of a file name (`unit` of `dir/unit.mod`).
pub(crate) fn stem(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.rsplit_once('.').map_or(base, |(s, _)| s)
}

/// Reads a `.mod` RES: the LNK (the entry named after the model, else the one entry that is not a FIG)
/// and the FIG parts. Without a file name (an entry converted on its own) the LNK's entry names the model.
pub fn read_mod(bytes: &[u8], name: Option<&str>) -> Result<Figure> {
    let archive = res::parse(bytes)?;
    let wanted = name.map(stem);
    let mut lnk_entry: Option<(String, &[u8])> = None;
    let mut others = Vec::new();
    let mut parts = Vec::new();
    for i in 0..archive.len() {
        let entry = decode(CP1251, archive.name(i));
        let data = archive.data(i);
        if fig::read::morph_count(data).is_some() {
            let part = fig::parse(data).map_err(|e| e.within(format_args!("part {entry:?}")))?;
            parts.push((entry, part));
        } else if wanted.is_some_and(|m| entry.eq_ignore_ascii_case(m)) {
            lnk_entry = Some((entry, data));
        } else {
            others.push((entry, data));
        }
    }
    let (model, lnk_bytes) = match lnk_entry {
        Some(l) => l,
        None if others.len() == 1 => others.remove(0),
        None => {
            return Err(Error::invalid(
                res::FORMAT_ID,
                "model",
                0,
                format!("no entry named after the model (the LNK) and {} entries that are not FIG parts", others.len()),
            ))
        }
    };
    let lnk = lnk::parse(lnk_bytes).map_err(|e| e.within(format_args!("LNK {model:?}")))?;
    let model = wanted.map_or(model, str::to_string);
    Ok(Figure { name: model, lnk, parts, ..Default::default() })
}

/// Reads an animation set: a RES of animations (each a RES of parts) or a RES of parts (one animation,
/// named `default`).
pub fn read_animations(bytes: &[u8]) -> Result<Vec<Clip>> {
    let archive = res::parse(bytes)?;
    let mut clips = Vec::new();
    let mut loose = Vec::new();
    for i in 0..archive.len() {
        let entry = decode(CP1251, archive.name(i));
        let data = archive.data(i);
        if data.starts_with(&res::types::MAGIC) {
            let inner = res::parse(data).map_err(|e| e.within(format_args!("animation {entry:?}")))?;
            let mut parts = Vec::with_capacity(inner.len());
            for k in 0..inner.len() {
                let part = decode(CP1251, inner.name(k));
                let anm = anm::parse(inner.data(k)).map_err(|e| e.within(format_args!("{entry}/{part}")))?;
                parts.push((part, anm));
            }
            clips.push((entry, parts));
        } else {
            let anm = anm::parse(data).map_err(|e| e.within(format_args!("part {entry:?}")))?;
            loose.push((entry, anm));
        }
    }
    if !loose.is_empty() {
        clips.push(("default".to_string(), loose));
    }
    Ok(clips)
}

/// A texture for `name` (`unit.mmp`): beside the model, else in `--textures` (a folder or a RES), looked
/// up as map atlases are.
fn texture(opts: &ConvertOptions, path: Option<&Path>, name: &str) -> Result<Option<crate::asset::Image>> {
    let bytes = match opts.beside(path, name) {
        Some(b) => Some(b),
        None => crate::evil_islands::mp::atlas::AtlasSource::open(opts.textures.as_deref(), None)?.bytes(name),
    };
    match bytes {
        Some(b) => Ok(Some(mmp::convert::to_image(&mmp::parse(&b)?, false)?)),
        None => Ok(None),
    }
}

/// Loads a `.mod` with what lies beside it (or what the options name) and converts it to one scene.
pub fn convert_mod(bytes: &[u8], path: Option<&Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let name = path.and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
    let mut figure = read_mod(bytes, name.as_deref())?;
    dress(&mut figure, path, opts)?;
    let model = figure.name.clone();
    let anims = match &FigureSettings::of(opts).anims {
        Some(p) => Some(crate::source::read(p)?),
        None => opts.beside(path, &format!("{model}.anm")),
    };
    if let Some(a) = anims {
        figure.animations = read_animations(&a)?;
    }
    let morph = FigureSettings::morph(opts);
    let scene = to_scene(&figure, morph, &mut |n| opts.note(n))?;
    Ok(vec![NamedAsset { name: None, asset: Asset::Scene(scene) }])
}

/// Gives a figure its bone offsets (`<model>.bon` beside `path`, or `--bones`) and its texture
/// (`<model>.mmp` beside it or in `--textures`), noting what is missing. A `.bon` of one part on its own
/// (no RES) places the figure's first part.
pub fn dress(figure: &mut Figure, path: Option<&Path>, opts: &ConvertOptions) -> Result<()> {
    let model = figure.name.clone();
    let bones = match &FigureSettings::of(opts).bones {
        Some(p) => Some(crate::source::read(p)?),
        None => opts.beside(path, &format!("{model}.bon")),
    };
    match bones {
        Some(b) => {
            figure.bones = bon::parse_set(&b)?;
            if let ([(name, _)], Some(link)) = (figure.bones.as_mut_slice(), figure.lnk.links.first()) {
                if name.is_empty() {
                    name.clone_from(&link.name);
                }
            }
        }
        None => {
            opts.note(format!("{model}: no {model}.bon beside it (--bones): parts placed at their parents' origin"))
        }
    }
    figure.texture = texture(opts, path, &format!("{model}.mmp"))?;
    if figure.texture.is_none() {
        opts.record_missing("texture", format!("{model}.mmp"));
        opts.note(format!("{model}: no {model}.mmp beside it or in --textures: untextured"));
    }
    Ok(())
}

/// The figure named `model` beside `path`, without bones, texture or animations: the `.mod` RES
/// (`<model>.mod`), else the hierarchy `<model>.lnk` with each part's `<part>.fig` beside it, else a single
/// figure `<model>.fig` as a one-part model. `None` when none of them is there.
pub fn figure_beside(path: Option<&Path>, model: &str, opts: &ConvertOptions) -> Result<Option<Figure>> {
    if let Some(bytes) = opts.beside(path, &format!("{model}.mod")) {
        return read_mod(&bytes, Some(&format!("{model}.mod"))).map(Some);
    }
    if let Some(bytes) = opts.beside(path, &format!("{model}.lnk")) {
        let lnk = lnk::parse(&bytes).map_err(|e| e.within(format_args!("{model}.lnk")))?;
        let mut parts = Vec::new();
        for link in &lnk.links {
            match opts.beside(path, &format!("{}.fig", link.name)) {
                Some(b) => parts.push((
                    link.name.clone(),
                    fig::parse(&b).map_err(|e| e.within(format_args!("{}.fig", link.name)))?,
                )),
                None => opts.note(format!("{model}: no {}.fig beside it: part {} has no mesh", link.name, link.name)),
            }
        }
        return Ok(Some(Figure { name: model.to_string(), lnk, parts, ..Default::default() }));
    }
    if let Some(bytes) = opts.beside(path, &format!("{model}.fig")) {
        let part = fig::parse(&bytes).map_err(|e| e.within(format_args!("{model}.fig")))?;
        let lnk = lnk::Lnk {
            links: vec![lnk::types::Link { name: model.to_string(), ..Default::default() }],
            ..Default::default()
        };
        return Ok(Some(Figure {
            name: model.to_string(),
            lnk,
            parts: vec![(model.to_string(), part)],
            ..Default::default()
        }));
    }
    Ok(None)
}

/// The `.mod` archives of a RES and the files beside them that their conversion needs, by lower-case name:
/// for an archive's [`crate::registry::Archive::entry_options`].
pub fn siblings(archive: &res::Res<'_>) -> Option<std::collections::HashMap<String, Vec<u8>>> {
    let names: Vec<String> = (0..archive.len()).map(|i| decode(CP1251, archive.name(i)).to_lowercase()).collect();
    // A set, so that an archive of thousands of models and siblings is matched in O(n).
    let models: std::collections::HashSet<&str> =
        names.iter().filter(|n| n.ends_with(".mod")).map(|n| stem(n)).collect();
    if models.is_empty() {
        return None;
    }
    let wanted = |n: &str| [".bon", ".anm", ".mmp"].iter().any(|e| n.ends_with(e)) && models.contains(stem(n));
    // Entries may share one data range: copies stop at what `--max-expansion` allows for the archive
    // (the models left without theirs say so when they are converted).
    let budget = crate::limits::expansion_budget(archive.bytes().len() as u64);
    let mut copied = 0u64;
    let mut out = std::collections::HashMap::new();
    for (i, n) in names.iter().enumerate().filter(|(_, n)| wanted(n)) {
        let data = archive.data(i);
        copied = copied.saturating_add(data.len() as u64);
        if copied > budget {
            break;
        }
        out.insert(n.rsplit(['\\', '/']).next().unwrap_or(n).to_string(), data.to_vec());
    }
    Some(out)
}

/// A FIG on its own: one node with its mesh at `--morph` (the extremes as morph targets).
pub fn convert_part(part: &fig::Fig, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let lnk =
        lnk::Lnk { links: vec![lnk::types::Link { name: "part".into(), ..Default::default() }], ..Default::default() };
    let figure = Figure { name: "part".into(), lnk, parts: vec![("part".into(), part.clone())], ..Default::default() };
    let scene = to_scene(&figure, FigureSettings::morph(opts), &mut |n| opts.note(n))?;
    Ok(vec![NamedAsset { name: None, asset: Asset::Scene(scene) }])
}

/// A LNK on its own: the part hierarchy as nodes, without meshes or offsets.
pub fn convert_skeleton(lnk: lnk::Lnk, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let figure = Figure { name: "skeleton".into(), lnk, ..Default::default() };
    let scene = to_scene(&figure, FigureSettings::morph(opts), &mut |n| opts.note(n))?;
    Ok(vec![NamedAsset { name: None, asset: Asset::Scene(scene) }])
}

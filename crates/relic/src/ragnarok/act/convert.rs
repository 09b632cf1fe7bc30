//! `relic info` and `relic convert` of an ACT: its JSON document, and with its sprite each action drawn as
//! an animation (see [`super::render`]).

use std::path::Path;

use serde_json::json;

use super::render::{self, FrameImage, Part, Rect, Sprites};
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, Frame, FrameRole, Image, NamedAsset, Pixels};
use crate::error::{Error, Result};
use crate::registry::{ConvertOptions, Wanted};

/// Actions per group: one for each of the eight directions the client draws.
pub const DIRECTIONS: usize = 8;

/// Ticks drawn for an action without a delay (below 2.2) or with one that is not positive: zrenderer's
/// default of 4 (100 ms).
pub const DEFAULT_DELAY: f32 = 4.0;

/// Milliseconds of one delay tick, as the client counts them.
pub const TICK_MS: f32 = 25.0;

pub fn info(act: &Act) -> serde_json::Value {
    let motions: usize = act.actions.iter().map(|a| a.motions.len()).sum();
    let layers: usize = act.actions.iter().flat_map(|a| &a.motions).map(|m| m.layers.len()).sum();
    let anchors = act.actions.iter().flat_map(|a| &a.motions).any(|m| !m.anchors.is_empty());
    json!({
        "format": FORMAT_ID,
        "version": act.version.to_string(),
        "actions": act.actions.len(),
        "groups": act.actions.len().div_ceil(DIRECTIONS),
        "motions": motions,
        "layers": layers,
        "events": act.events.iter().map(|e| e.text.clone()).collect::<Vec<_>>(),
        "anchors": anchors,
        "delays": act.version.has_delays().then(|| act.actions.iter().map(|a| a.delay.map_or(0.0, |d| d.get())).collect::<Vec<_>>()),
    })
}

/// The delay an action is drawn with, in ticks, and whether it had to be taken as the default.
pub fn delay_ticks(action: &Action) -> (f32, bool) {
    match action.delay.map(|d| d.get()) {
        Some(d) if d.is_finite() && d > 0.0 => (d, false),
        Some(_) => (DEFAULT_DELAY, true),
        None => (DEFAULT_DELAY, false),
    }
}

/// The frame rate of an action's animation: one motion each `25 ms × delay`.
pub fn frame_rate(action: &Action) -> f32 {
    1000.0 / (TICK_MS * delay_ticks(action).0)
}

/// The output name of action `i`: `<group>_<direction>`.
pub fn action_name(i: usize) -> String {
    format!("{}_{}", i / DIRECTIONS, i % DIRECTIONS)
}

/// A sprite drawn through this ACT: its images, and the ACT of a second sprite drawn over it through the
/// anchors (a head on a body).
#[derive(Debug, Clone, Copy)]
pub struct Drawn<'a> {
    pub act: &'a Act,
    pub sprites: Sprites<'a>,
}

/// The option that picks the head direction of a player's idle and sit actions:
/// `--option ro-act.head-direction=all|0|1|2`.
pub const HEAD_DIRECTION_OPTION: &str = "ro-act.head-direction";

/// The groups in which the client turns a player's head ("doridori"): idle (0) and sit (2), roBrowser's
/// `ACTION.IDLE` and `ACTION.SIT` of `TYPE_PC` (`Renderer/Entity/EntityAction.js`).
pub const HEAD_TURNING_GROUPS: [usize; 2] = [0, 2];

/// Which way a player's head looks in its idle and sit actions (see [`motion_pairs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadDirection {
    /// One direction: 0 straight ahead (the default: a player standing as the client shows one until it
    /// turns its head), 1 and 2 turned (as roBrowser's `entity.headDir`).
    One(u8),
    /// The three directions one after the other, each with its body frames (zrenderer's `all`).
    All,
}

impl Default for HeadDirection {
    fn default() -> Self {
        HeadDirection::One(0)
    }
}

impl HeadDirection {
    /// The direction `--option ro-act.head-direction` asks for (0, straight ahead, when absent).
    pub fn from_options(opts: &ConvertOptions) -> Result<HeadDirection> {
        match opts.setting(HEAD_DIRECTION_OPTION) {
            Some("all") => Ok(HeadDirection::All),
            None | Some("0") => Ok(HeadDirection::One(0)),
            Some("1") => Ok(HeadDirection::One(1)),
            Some("2") => Ok(HeadDirection::One(2)),
            Some(other) => Err(Error::Refused(format!(
                "{HEAD_DIRECTION_OPTION}={other}: the head direction is 0 (straight), 1 or 2 (turned), or all"
            ))),
        }
    }
}

/// The motions drawn for action `a` of a body of `body_len` motions: each body motion, with the head's
/// motion drawn over it when the head has `head_len` motions (`None` without a head).
///
/// How the client picks a head's frame (read in roBrowser's `Renderer/Entity/EntityRender.js`,
/// `CalcAnimation`, and zrenderer's `drawPlayer` in `source/renderer.d`):
/// - idle and sit ([`HEAD_TURNING_GROUPS`]): a player's body and head both hold three runs of frames,
///   one per head direction (0 straight, 1 and 2 turned; usually one frame each). roBrowser shows body
///   frame `headDir` and head frame `headDir × (n / 3)` plus the time-driven frame within the run;
///   zrenderer, asked for every direction, draws body frame `i` with head frame `i / (body / 3)` (for a
///   head of three frames). The runs belong together: a real body's idle frames differ only in their
///   anchor, which moves with the turned head (a male costume body: (0, −59), (−4, −60), (4, −60)), so
///   a body frame is drawn with the head of its own run only. [`HeadDirection::One`] (0 by default)
///   draws one run: the body's and the head's motions of that direction, a still player as the client
///   shows one; [`HeadDirection::All`] all three in turn: body motion `m` is in run `m / (body / 3)`, and
///   its head motion is the same run of the head, `m`'s place in its run wrapping within the head's run.
///   A body or head of fewer than three motions has no runs: the head motion follows the body's index.
/// - every other action: the same motion index as the body (both advance with the same clock; a head
///   of fewer motions wraps, as zrenderer's `frameindex % length`).
pub fn motion_pairs(
    a: usize,
    body_len: usize,
    head_len: Option<usize>,
    direction: HeadDirection,
) -> Vec<(usize, Option<usize>)> {
    let Some(hl) = head_len.filter(|&n| n > 0) else {
        return (0..body_len).map(|m| (m, None)).collect();
    };
    let turning = HEAD_TURNING_GROUPS.contains(&(a / DIRECTIONS));
    let (body_run, head_run) = (body_len / 3, hl / 3);
    if !turning || body_run == 0 || head_run == 0 {
        return (0..body_len).map(|m| (m, Some(m % hl))).collect();
    }
    // The run of body motion m: the last run takes what a length not divisible by three leaves.
    let run_of = |m: usize| (m / body_run).min(2);
    (0..body_len)
        .filter(|&m| match direction {
            HeadDirection::All => true,
            HeadDirection::One(d) => run_of(m) == usize::from(d),
        })
        .map(|m| {
            let run = run_of(m);
            (m, Some(run * head_run + (m - run * body_run) % head_run))
        })
        .collect()
}

/// Where the head is drawn: body anchor − head anchor (their first anchors; zrenderer's
/// `drawObjectsOfFrame`, roBrowser's entity renderer), (0, 0) when either has none.
pub fn anchor_offset(body: &Motion, head: &Motion) -> (i32, i32) {
    match (body.anchors.first(), head.anchors.first()) {
        (Some(b), Some(h)) => (b.x.wrapping_sub(h.x), b.y.wrapping_sub(h.y)),
        _ => (0, 0),
    }
}

/// The parts of one drawn motion of action `a`: the body's motion `m` and the head's motion `hm` over it.
fn parts<'a>(body: &Drawn<'a>, head: Option<&Drawn<'a>>, a: usize, (m, hm): (usize, Option<usize>)) -> Vec<Part<'a>> {
    let Some(motion) = body.act.actions.get(a).and_then(|x| x.motions.get(m)) else { return Vec::new() };
    let mut out = vec![Part { layers: &motion.layers, sprites: body.sprites, offset: (0, 0) }];
    if let (Some(h), Some(hm)) = (head, hm) {
        if let Some(hm) = h.act.actions.get(a).and_then(|x| x.motions.get(hm)) {
            out.push(Part { layers: &hm.layers, sprites: h.sprites, offset: anchor_offset(motion, hm) });
        }
    }
    out
}

/// One action drawn: every motion on a canvas of the same size (the union of all of them), `origin` the
/// canvas pixel of the sprite's origin.
#[derive(Debug, Clone)]
pub struct Animation {
    pub width: u32,
    pub height: u32,
    pub origin: (i64, i64),
    pub frames: Vec<Vec<u8>>,
    /// Frames per second (see [`frame_rate`]).
    pub rate: f32,
}

/// Draws action `a` (with `head` over it, looking straight ahead in idle and sit: the default
/// [`HeadDirection`]); `None` when it draws nothing. `budget` is what may still be spent, in bytes of canvas and 4 per pixel a layer
/// visits ([`render::cost`]); drawing subtracts from it and refuses past it.
pub fn draw_action(
    body: &Drawn<'_>,
    head: Option<&Drawn<'_>>,
    a: usize,
    budget: &mut u64,
) -> Result<Option<Animation>> {
    draw_action_facing(body, head, a, HeadDirection::default(), budget)
}

/// [`draw_action`] with the head direction of idle and sit chosen (see [`motion_pairs`]).
pub fn draw_action_facing(
    body: &Drawn<'_>,
    head: Option<&Drawn<'_>>,
    a: usize,
    direction: HeadDirection,
    budget: &mut u64,
) -> Result<Option<Animation>> {
    let Some(action) = body.act.actions.get(a) else { return Ok(None) };
    let head_len = head.map(|h| h.act.actions.get(a).map_or(0, |x| x.motions.len()));
    let pairs = motion_pairs(a, action.motions.len(), head_len, direction);
    let mut rect: Option<Rect> = None;
    for &m in &pairs {
        if let Some(r) = render::bounds(&parts(body, head, a, m)) {
            rect = Some(rect.map_or(r, |o| o.union(r)));
        }
    }
    let Some(rect) = rect else { return Ok(None) };
    let (w, h) = (u32::try_from(rect.width()).unwrap_or(u32::MAX), u32::try_from(rect.height()).unwrap_or(u32::MAX));
    crate::limits::check_pixels(&format!("{FORMAT_ID} action {a}"), w, h)?;
    // The canvases written, and the pixels every layer visits to draw them.
    let mut bytes = u64::from(w) * u64::from(h) * 4 * pairs.len() as u64;
    for &m in &pairs {
        bytes = bytes.saturating_add(render::cost(&parts(body, head, a, m), rect).saturating_mul(4));
    }
    *budget = budget.checked_sub(bytes).ok_or_else(|| {
        crate::error::Error::limit(
            FORMAT_ID,
            format!("actions[{a}]"),
            0,
            "drawing every action would take more pixels than the expansion limit allows (--max-expansion raises it)",
        )
    })?;
    let frames = pairs.iter().map(|&m| render::draw(&parts(body, head, a, m), rect)).collect::<Result<_>>()?;
    Ok(Some(Animation { width: w, height: h, origin: (-rect.left, -rect.top), frames, rate: frame_rate(action) }))
}

/// The layers the drawn actions skip (see [`render::Skip`]), by file (body, or the head of `--with`) and
/// reason: how many, and the first [`SKIPS_NAMED`] as (action, motion, layer). Only counts and a few places
/// are kept, however many layers a file holds.
pub type SkippedLayers = std::collections::BTreeMap<(bool, render::Skip), (usize, Vec<(usize, usize, usize)>)>;

/// Layers named in a note before the rest are counted.
pub const SKIPS_NAMED: usize = 5;

/// The layers the drawn actions skip, each counted once (a head motion drawn over several body motions is
/// counted where it is first drawn); the head's are placed through the body's anchors as they are drawn.
pub fn skipped_layers(body: &Drawn<'_>, head: Option<&Drawn<'_>>, direction: HeadDirection) -> SkippedLayers {
    let mut out = SkippedLayers::new();
    let mut heads_seen = std::collections::HashSet::new();
    for (a, action) in body.act.actions.iter().enumerate() {
        let head_len = head.map(|h| h.act.actions.get(a).map_or(0, |x| x.motions.len()));
        for m in motion_pairs(a, action.motions.len(), head_len, direction) {
            for (p, part) in parts(body, head, a, m).iter().enumerate() {
                let is_head = p != 0;
                let motion = if is_head { m.1.unwrap_or(0) } else { m.0 };
                if is_head && !heads_seen.insert((a, motion)) {
                    continue;
                }
                for (l, layer) in part.layers.iter().enumerate() {
                    if let Some(skip) = render::skipped(layer, &part.sprites, part.offset) {
                        let (count, at) = out.entry((is_head, skip)).or_default();
                        *count += 1;
                        if at.len() < SKIPS_NAMED {
                            at.push((a, motion, l));
                        }
                    }
                }
            }
        }
    }
    out
}

/// One note per file and reason: `3 layers of body.act skipped: offset past ±32768 px (action 0 frame 2
/// layer 1, …)`; `names` are the body's and the head's file names.
pub fn skip_notes(skipped: &SkippedLayers, names: (&str, Option<&str>)) -> Vec<String> {
    skipped
        .iter()
        .map(|(&(is_head, skip), (n, at))| {
            let file = if is_head { names.1.unwrap_or("the head") } else { names.0 };
            let mut places: Vec<String> =
                at.iter().map(|(a, m, l)| format!("action {a} frame {m} layer {l}")).collect();
            if *n > at.len() {
                places.push(format!("and {} more", n - at.len()));
            }
            let layers = if *n == 1 { "layer" } else { "layers" };
            format!("{FORMAT_ID}: {n} {layers} of {file} skipped: {} ({})", skip.reason(), places.join(", "))
        })
        .collect()
}

/// An animation as an image: an APNG with its frames when it has two or more, else one still frame.
pub fn animation_image(anim: Animation) -> Image {
    let offset = (i32::try_from(anim.origin.0).unwrap_or(i32::MAX), i32::try_from(anim.origin.1).unwrap_or(i32::MAX));
    let animated = anim.frames.len() > 1;
    Image {
        frames: anim
            .frames
            .into_iter()
            .map(|rgba| Frame {
                name: None,
                width: anim.width,
                height: anim.height,
                pixels: Pixels::Rgba8(rgba),
                offset,
                hotspots: Vec::new(),
                role: FrameRole::Frame,
            })
            .collect(),
        palette: None,
        frame_rate: animated.then_some(anim.rate),
        text: Vec::new(),
    }
}

/// Every action drawn, named `<group>_<direction>`, after the document. `input_len` (the bytes of the
/// ACT and its sprites) sets the expansion budget.
pub fn draw_all(
    body: &Drawn<'_>,
    head: Option<&Drawn<'_>>,
    input_len: u64,
    opts: &ConvertOptions,
) -> Result<Vec<NamedAsset>> {
    let direction = HeadDirection::from_options(opts)?;
    let mut budget = crate::limits::expansion_budget(input_len);
    let mut out = Vec::new();
    let mut defaulted = Vec::new();
    for (a, action) in body.act.actions.iter().enumerate() {
        if delay_ticks(action).1 {
            defaulted.push(a.to_string());
        }
        if let Some(anim) = draw_action_facing(body, head, a, direction, &mut budget)? {
            out.push(NamedAsset { name: Some(action_name(a)), asset: Asset::Image(animation_image(anim)) });
        }
    }
    if !defaulted.is_empty() {
        opts.note(format!(
            "{FORMAT_ID}: actions {} have a delay that is not positive: drawn with {DEFAULT_DELAY} ticks",
            defaulted.join(", ")
        ));
    }
    Ok(out)
}

/// The JSON document as an asset.
pub fn document(act: &Act) -> Result<NamedAsset> {
    let value = crate::registry::tagged_document_json(FORMAT_ID, act)?;
    Ok(NamedAsset { name: None, asset: Asset::Document(Document { value, tables: vec![] }) })
}

/// `relic convert`: the document, and the actions drawn when the sprite is found: the `.spr` of the same
/// name beside the file (ASCII case ignored), or beside the entry in its archive; `--with` adds a head.
pub fn convert(data: &[u8], path: Option<&Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let act = super::parse(data)?;
    let mut out = vec![document(&act)?];
    let name = match (path, opts.nearby.entry_name()) {
        (Some(p), _) => p.file_name().map(|n| n.to_string_lossy().into_owned()),
        (None, Some(entry)) => Some(entry.to_string()),
        (None, None) => None,
    };
    let Some(name) = name else {
        opts.note(format!("{FORMAT_ID}: no file name to find the sprite by: only the JSON document"));
        return Ok(out);
    };
    let spr_name = sprite_name(&name);
    let Some(spr_bytes) = find_sprite(path, &spr_name, opts) else {
        opts.note(format!(
            "{FORMAT_ID}: no sprite `{}` beside `{}`: only the JSON document (the actions are drawn with it)",
            base_name(&spr_name),
            base_name(&name)
        ));
        return Ok(out);
    };
    // A sprite that does not read leaves the document written, and fails the input (exit code 1).
    let body = match Loaded::new(&spr_bytes, Palette::Body, opts) {
        Ok(body) => body,
        Err(e) => {
            opts.fail(format!("{FORMAT_ID}: sprite `{}`: {e}: only the JSON document", base_name(&spr_name)));
            return Ok(out);
        }
    };
    let mut input_len = data.len() as u64 + spr_bytes.len() as u64;
    let mut head_name = None;
    let settings = super::HeadSettings::of(opts);
    let head = match (&settings.with, &settings.with_files) {
        (None, Some(files)) => {
            head_name = Some(files.name.clone());
            let head_act = super::parse(&files.main).map_err(|e| e.in_file(Path::new(&files.name)))?;
            input_len += (files.main.len() + files.companion.len()) as u64;
            let loaded =
                Loaded::new(&files.companion, Palette::Head, opts).map_err(|e| e.in_file(Path::new(&files.name)))?;
            Some((head_act, loaded))
        }
        (Some(with), _) => {
            let act_bytes = crate::source::read(with)?;
            let head_act = super::parse(&act_bytes).map_err(|e| e.in_file(with))?;
            let with_name = with.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            head_name = Some(with_name.clone());
            let head_spr = sprite_name(&with_name);
            // The user's own file: its sprite is looked for beside it on disk only, wherever it is.
            let spr = ConvertOptions::default().beside(Some(with), &head_spr).ok_or_else(|| {
                Error::Refused(format!("--with {}: no sprite `{head_spr}` beside it", with.display()))
            })?;
            input_len += (act_bytes.len() + spr.len()) as u64;
            let loaded =
                Loaded::new(&spr, Palette::Head, opts).map_err(|e| e.in_file(&with.with_file_name(&head_spr)))?;
            Some((head_act, loaded))
        }
        (None, None) => None,
    };
    let body_images = body.images();
    let body_drawn = Drawn { act: &act, sprites: body_images.sprites() };
    let head_images = head.as_ref().map(|(_, l)| l.images());
    let head_drawn = match (&head, &head_images) {
        (Some((a, _)), Some(images)) => Some(Drawn { act: a, sprites: images.sprites() }),
        _ => None,
    };
    // Layers placed, scaled or pointing where nothing can be drawn are skipped, and said so.
    let skipped = skipped_layers(&body_drawn, head_drawn.as_ref(), HeadDirection::from_options(opts)?);
    for note in skip_notes(&skipped, (base_name(&name), head_name.as_deref().map(base_name))) {
        opts.note(note);
    }
    out.extend(draw_all(&body_drawn, head_drawn.as_ref(), input_len, opts)?);
    Ok(out)
}

/// `x.spr` for `x.act` (any folder kept, the extension replaced; `x.spr` for a name without one).
fn sprite_name(act_name: &str) -> String {
    let base_at = act_name.rfind(['/', '\\']).map_or(0, |i| i + 1);
    match act_name.rfind('.').filter(|&dot| dot > base_at) {
        Some(dot) => format!("{}.spr", &act_name[..dot]),
        None => format!("{act_name}.spr"),
    }
}

/// The last component of a stored or file name.
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The sprite's bytes: beside the file on disk or among the archive's siblings, else in the same
/// archive under the entry's folder.
fn find_sprite(path: Option<&Path>, spr_name: &str, opts: &ConvertOptions) -> Option<Vec<u8>> {
    opts.beside(path, Wanted::from(base_name(spr_name)).or_stored_as(spr_name))
}

/// A sprite read and its frames drawn as RGBA.
struct Loaded {
    palette: Vec<crate::ragnarok::spr::RgbaFrame>,
    rgba: Vec<crate::ragnarok::spr::RgbaFrame>,
}

/// The frames of a [`Loaded`] sprite as the compositor takes them.
struct Images<'a> {
    palette: Vec<FrameImage<'a>>,
    rgba: Vec<FrameImage<'a>>,
}

impl Images<'_> {
    fn sprites(&self) -> Sprites<'_> {
        Sprites { palette: &self.palette, rgba: &self.rgba }
    }
}

/// Which sprite a [`Loaded`] is, and so which palette option draws it.
#[derive(Debug, Clone, Copy)]
enum Palette {
    /// The ACT's own sprite: `--palette`.
    Body,
    /// The sprite of `--with` drawn over it: `--head-palette` (a hair dye does not dye the body).
    Head,
}

impl Loaded {
    fn new(bytes: &[u8], which: Palette, opts: &ConvertOptions) -> Result<Loaded> {
        let spr = crate::ragnarok::spr::Spr::read(bytes)?;
        use crate::ragnarok::spr::convert::{drawing_palette, drawing_palette_from, GivenPalette};
        let palette = match which {
            Palette::Body => drawing_palette(&spr, opts)?,
            Palette::Head => {
                let settings = super::HeadSettings::of(opts);
                let picked = settings.picked_palettes.as_ref().and_then(|p| p.with.as_ref());
                let given = match (picked, &settings.head_palette) {
                    (Some((name, bytes)), _) => Some(GivenPalette::Bytes { name, bytes }),
                    (None, Some(path)) => Some(GivenPalette::File(path)),
                    (None, None) => None,
                };
                drawing_palette_from(&spr, given, "--head-palette", opts)?
            }
        };
        Ok(Loaded { palette: spr.palette_frames_rgba(Some(&palette))?, rgba: spr.rgba_frames()? })
    }

    fn images(&self) -> Images<'_> {
        fn view(f: &crate::ragnarok::spr::RgbaFrame) -> FrameImage<'_> {
            FrameImage { width: f.width, height: f.height, rgba: &f.rgba }
        }
        Images { palette: self.palette.iter().map(view).collect(), rgba: self.rgba.iter().map(view).collect() }
    }
}

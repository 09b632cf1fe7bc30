//! `relic info` and `relic convert` of an ACT: its JSON document, and with its sprite each action drawn as
//! an animation (see [`render`](super::render)).

use serde_json::json;

use super::render::{self, Part, Rect, Sprites};
use super::types::*;
use super::FORMAT_ID;
use crate::asset::{Asset, Document, Frame, FrameRole, Image, NamedAsset, Pixels};
use crate::error::Result;
use crate::registry::ConvertOptions;

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

/// The head's motion drawn with the body's motion `m` of action `a`: the same action, the same motion
/// index (wrapping when the head has fewer: a standing body has one motion, its head three, the first
/// looking straight ahead).
fn head_motion<'a>(head: &'a Act, a: usize, m: usize) -> Option<&'a Motion> {
    let motions = &head.actions.get(a)?.motions;
    motions.get(m.checked_rem(motions.len())?)
}

/// Where the head is drawn: body anchor − head anchor (their first anchors; zrenderer's
/// `drawObjectsOfFrame`, roBrowser's entity renderer), (0, 0) when either has none.
pub fn anchor_offset(body: &Motion, head: &Motion) -> (i32, i32) {
    match (body.anchors.first(), head.anchors.first()) {
        (Some(b), Some(h)) => (b.x.wrapping_sub(h.x), b.y.wrapping_sub(h.y)),
        _ => (0, 0),
    }
}

/// The parts of motion `m` of action `a`: the body's layers, then the head's.
fn parts<'a>(body: &Drawn<'a>, head: Option<&Drawn<'a>>, a: usize, m: usize) -> Vec<Part<'a>> {
    let Some(motion) = body.act.actions.get(a).and_then(|x| x.motions.get(m)) else { return Vec::new() };
    let mut out = vec![Part { layers: &motion.layers, sprites: body.sprites, offset: (0, 0) }];
    if let Some(h) = head {
        if let Some(hm) = head_motion(h.act, a, m) {
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

/// Draws action `a` (with `head` over it); `None` when it draws nothing. `budget` is what may still be
/// spent on pixels, in bytes; drawing subtracts from it and refuses past it.
pub fn draw_action(
    body: &Drawn<'_>,
    head: Option<&Drawn<'_>>,
    a: usize,
    budget: &mut u64,
) -> Result<Option<Animation>> {
    let Some(action) = body.act.actions.get(a) else { return Ok(None) };
    let mut rect: Option<Rect> = None;
    for m in 0..action.motions.len() {
        if let Some(r) = render::bounds(&parts(body, head, a, m)) {
            rect = Some(rect.map_or(r, |o| o.union(r)));
        }
    }
    let Some(rect) = rect else { return Ok(None) };
    let (w, h) = (u32::try_from(rect.width()).unwrap_or(u32::MAX), u32::try_from(rect.height()).unwrap_or(u32::MAX));
    crate::limits::check_pixels(&format!("{FORMAT_ID} action {a}"), w, h)?;
    let bytes = u64::from(w) * u64::from(h) * 4 * action.motions.len() as u64;
    *budget = budget.checked_sub(bytes).ok_or_else(|| {
        crate::error::Error::limit(
            FORMAT_ID,
            format!("actions[{a}]"),
            0,
            "drawing every action would take more pixels than the expansion limit allows (--max-expansion raises it)",
        )
    })?;
    let frames =
        (0..action.motions.len()).map(|m| render::draw(&parts(body, head, a, m), rect)).collect::<Result<_>>()?;
    Ok(Some(Animation { width: w, height: h, origin: (-rect.left, -rect.top), frames, rate: frame_rate(action) }))
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
    let mut budget = crate::limits::expansion_budget(input_len);
    let mut out = Vec::new();
    let mut defaulted = Vec::new();
    for (a, action) in body.act.actions.iter().enumerate() {
        if delay_ticks(action).1 {
            defaulted.push(a.to_string());
        }
        if let Some(anim) = draw_action(body, head, a, &mut budget)? {
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

/// `relic convert`: the document, and the actions drawn when the sprite is found.
pub fn convert(data: &[u8], path: Option<&std::path::Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let act = super::parse(data)?;
    let _ = path;
    let _ = opts;
    Ok(vec![document(&act)?])
}

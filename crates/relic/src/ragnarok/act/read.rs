//! ACT reader: every count is checked against the bytes that remain before anything is allocated.

use super::types::*;
use crate::codec::float::F32;
use crate::error::Result;
use crate::reader::Reader;

use super::FORMAT_ID;

/// Bytes of a layer record before the 2.4 and 2.5 additions: x, y, sprite, mirror, colour, scale,
/// rotation, kind.
const LAYER_MIN: usize = 32;
/// The smallest motion: two ranges, a layer count and an event.
const MOTION_MIN: usize = 32 + 4 + 4;
const ANCHOR_LEN: usize = 16;

/// Parses an ACT file.
pub fn parse(data: &[u8]) -> Result<Act> {
    let mut r = Reader::new(FORMAT_ID, data);
    let magic = r.array::<2>("magic")?;
    if magic != MAGIC {
        return Err(r.error_at("magic", 0, format!("expected `AC`, found {magic:02X?}")));
    }
    let [minor, major] = r.array::<2>("version")?;
    let version = Version::new(major, minor);
    if !version.is_supported() {
        return Err(r.error_at("version", 2, format!("version {version} is not one relic reads (2.0 to 2.5)")));
    }
    let action_count = r.u16("action_count")?;
    let reserved = r.array::<10>("reserved")?;
    let action_count = r.count(action_count.into(), 4, "action_count")?;
    let mut actions = Vec::with_capacity(action_count);
    for a in 0..action_count {
        let field = format!("actions[{a}]");
        let n = r.u32(&format!("{field}.motion_count"))?;
        let n = r.count(n.into(), MOTION_MIN, &format!("{field}.motion_count"))?;
        let mut motions = Vec::with_capacity(n);
        for m in 0..n {
            motions.push(motion(&mut r, version, &format!("{field}.motions[{m}]"))?);
        }
        actions.push(Action { delay: None, motions });
    }
    let mut events = Vec::new();
    if version.has_events() {
        let n = r.u32("event_count")?;
        let n = r.count(n.into(), EVENT_NAME_LEN, "event_count")?;
        events.reserve_exact(n);
        for e in 0..n {
            let raw = r.bytes(EVENT_NAME_LEN, &format!("events[{e}]"))?;
            events.push(crate::ragnarok::rsm::read::name_from_bytes(raw, true));
        }
    }
    if version.has_delays() {
        for (a, action) in actions.iter_mut().enumerate() {
            action.delay = Some(F32::from_le_bytes(r.array::<4>(&format!("actions[{a}].delay"))?));
        }
    }
    let trailing = r.bytes(r.remaining(), "trailing")?.to_vec();
    Ok(Act { version, reserved, actions, events, trailing: crate::bytes::Base64(trailing) })
}

fn motion(r: &mut Reader<'_>, version: Version, field: &str) -> Result<Motion> {
    let mut ranges = [[0i32; 4]; 2];
    for range in &mut ranges {
        for v in range.iter_mut() {
            *v = r.i32(&format!("{field}.ranges"))?;
        }
    }
    let n = r.u32(&format!("{field}.layer_count"))?;
    let layer_len = LAYER_MIN + if version.has_scale_y() { 4 } else { 0 } + if version.has_size() { 8 } else { 0 };
    let n = r.count(n.into(), layer_len, &format!("{field}.layer_count"))?;
    let mut layers = Vec::with_capacity(n);
    for l in 0..n {
        let f = format!("{field}.layers[{l}]");
        let x = r.i32(&f)?;
        let y = r.i32(&f)?;
        let sprite = r.i32(&f)?;
        let mirror = r.u32(&f)?;
        let color = r.array::<4>(&f)?;
        let scale_x = F32::from_le_bytes(r.array::<4>(&f)?);
        let scale_y = if version.has_scale_y() { Some(F32::from_le_bytes(r.array::<4>(&f)?)) } else { None };
        let rotation = r.i32(&f)?;
        let kind = r.i32(&f)?;
        let size = if version.has_size() { Some([r.i32(&f)?, r.i32(&f)?]) } else { None };
        layers.push(Layer { x, y, sprite, mirror, color, scale_x, scale_y, rotation, kind, size });
    }
    let event = r.i32(&format!("{field}.event"))?;
    let mut anchors = Vec::new();
    if version.has_anchors() {
        let n = r.u32(&format!("{field}.anchor_count"))?;
        let n = r.count(n.into(), ANCHOR_LEN, &format!("{field}.anchor_count"))?;
        anchors.reserve_exact(n);
        for a in 0..n {
            let f = format!("{field}.anchors[{a}]");
            let unknown = r.array::<4>(&f)?;
            anchors.push(Anchor { unknown, x: r.i32(&f)?, y: r.i32(&f)?, attribute: r.i32(&f)? });
        }
    }
    Ok(Motion { ranges, layers, event, anchors })
}

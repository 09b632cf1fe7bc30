//! ACT writer: the exact inverse of [`super::read::parse`]. A field the document's version has no room
//! for (anchors below 2.3, a delay below 2.2, …) is refused rather than dropped.

use super::types::*;
use super::FORMAT_ID;
use crate::error::Result;
use crate::writer::Writer;

/// Writes an ACT file.
pub fn write(act: &Act) -> Result<Vec<u8>> {
    let v = act.version;
    let mut w = Writer::new(FORMAT_ID);
    if !v.is_supported() {
        return Err(w.refused("version", format!("{v} is not one relic writes (2.0 to 2.5)")));
    }
    w.bytes(&MAGIC);
    w.u8(v.minor);
    w.u8(v.major);
    w.count_u16("actions", act.actions.len())?;
    w.bytes(&act.reserved);
    for (a, action) in act.actions.iter().enumerate() {
        let field = format!("actions[{a}]");
        w.count_u32(&field, action.motions.len())?;
        for (m, motion) in action.motions.iter().enumerate() {
            write_motion(&mut w, v, motion, &format!("{field}.motions[{m}]"))?;
        }
    }
    if v.has_events() {
        w.count_u32("events", act.events.len())?;
        for (e, name) in act.events.iter().enumerate() {
            let field = format!("events[{e}]");
            let bytes = event_bytes(&w, name, &field)?;
            w.bytes(&bytes);
        }
    } else if !act.events.is_empty() {
        return Err(w.refused("events", format!("version {v} has no event names (2.1+)")));
    }
    for (a, action) in act.actions.iter().enumerate() {
        match (v.has_delays(), action.delay) {
            (true, Some(d)) => w.f32_exact(d),
            (true, None) => return Err(w.refused(&format!("actions[{a}].delay"), format!("version {v} needs one"))),
            (false, Some(_)) => {
                return Err(w.refused(&format!("actions[{a}].delay"), format!("version {v} has no delays (2.2+)")))
            }
            (false, None) => {}
        }
    }
    w.bytes(&act.trailing.0);
    Ok(w.into_bytes())
}

fn write_motion(w: &mut Writer, v: Version, motion: &Motion, field: &str) -> Result<()> {
    for &value in motion.ranges.iter().flatten() {
        w.i32(value);
    }
    w.count_u32(&format!("{field}.layers"), motion.layers.len())?;
    for (l, layer) in motion.layers.iter().enumerate() {
        let f = format!("{field}.layers[{l}]");
        for value in [layer.x, layer.y, layer.sprite] {
            w.i32(value);
        }
        w.u32(layer.mirror);
        w.bytes(&layer.color);
        w.f32_exact(layer.scale_x);
        match (v.has_scale_y(), layer.scale_y) {
            (true, y) => w.f32_exact(y.unwrap_or(layer.scale_x)),
            (false, Some(y)) if y != layer.scale_x => {
                return Err(
                    w.refused(&format!("{f}.scale_y"), format!("version {v} has one scale for both axes (2.4+)"))
                )
            }
            (false, _) => {}
        }
        w.i32(layer.rotation);
        w.i32(layer.kind);
        match (v.has_size(), layer.size) {
            (true, size) => {
                for value in size.unwrap_or([0, 0]) {
                    w.i32(value);
                }
            }
            (false, Some(_)) => {
                return Err(w.refused(&format!("{f}.size"), format!("version {v} has no layer size (2.5+)")))
            }
            (false, None) => {}
        }
    }
    w.i32(motion.event);
    if v.has_anchors() {
        w.count_u32(&format!("{field}.anchors"), motion.anchors.len())?;
        for anchor in &motion.anchors {
            w.bytes(&anchor.unknown);
            for value in [anchor.x, anchor.y, anchor.attribute] {
                w.i32(value);
            }
        }
    } else if !motion.anchors.is_empty() {
        return Err(w.refused(&format!("{field}.anchors"), format!("version {v} has no anchors (2.3+)")));
    }
    Ok(())
}

/// The 40 bytes of an event name: its raw bytes while they still decode to the text, else the text in
/// CP949, zero-padded.
fn event_bytes(w: &Writer, name: &Name, field: &str) -> Result<Vec<u8>> {
    if let Some(raw) = name.usable_raw().filter(|raw| raw.len() == EVENT_NAME_LEN) {
        return Ok(raw.to_vec());
    }
    crate::ragnarok::rsm::read::encode_text(&name.text, true)
        .ok_or_else(|| w.refused(field, format!("`{}` does not fit a 40-byte CP949 field", name.text)))
}

//! ACT writer: the exact inverse of [`super::read::parse`]. A field the document's version has no room
//! for (anchors below 2.3, a delay below 2.2, …) is refused rather than dropped.

use super::read::refuse;
use super::types::*;
use crate::error::Result;

/// Writes an ACT file.
pub fn write(act: &Act) -> Result<Vec<u8>> {
    let v = act.version;
    if !v.is_supported() {
        return Err(refuse("version", format!("{v} is not one relic writes (2.0 to 2.5)")));
    }
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[v.minor, v.major]);
    let count = u16::try_from(act.actions.len()).map_err(|_| refuse("actions", "more than 65535 actions"))?;
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&act.reserved);
    for (a, action) in act.actions.iter().enumerate() {
        let field = format!("actions[{a}]");
        u32_count(&mut out, action.motions.len(), &field)?;
        for (m, motion) in action.motions.iter().enumerate() {
            write_motion(&mut out, v, motion, &format!("{field}.motions[{m}]"))?;
        }
    }
    if v.has_events() {
        u32_count(&mut out, act.events.len(), "events")?;
        for (e, name) in act.events.iter().enumerate() {
            out.extend_from_slice(&event_bytes(name, &format!("events[{e}]"))?);
        }
    } else if !act.events.is_empty() {
        return Err(refuse("events", format!("version {v} has no event names (2.1+)")));
    }
    for (a, action) in act.actions.iter().enumerate() {
        match (v.has_delays(), action.delay) {
            (true, Some(d)) => out.extend_from_slice(&d.to_le_bytes()),
            (true, None) => return Err(refuse(&format!("actions[{a}].delay"), format!("version {v} needs one"))),
            (false, Some(_)) => {
                return Err(refuse(&format!("actions[{a}].delay"), format!("version {v} has no delays (2.2+)")))
            }
            (false, None) => {}
        }
    }
    out.extend_from_slice(&act.trailing.0);
    Ok(out)
}

fn u32_count(out: &mut Vec<u8>, n: usize, field: &str) -> Result<()> {
    let n = u32::try_from(n).map_err(|_| refuse(field, "too many"))?;
    out.extend_from_slice(&n.to_le_bytes());
    Ok(())
}

fn write_motion(out: &mut Vec<u8>, v: Version, motion: &Motion, field: &str) -> Result<()> {
    for value in motion.ranges.iter().flatten() {
        out.extend_from_slice(&value.to_le_bytes());
    }
    u32_count(out, motion.layers.len(), &format!("{field}.layers"))?;
    for (l, layer) in motion.layers.iter().enumerate() {
        let f = format!("{field}.layers[{l}]");
        for value in [layer.x, layer.y, layer.sprite] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&layer.mirror.to_le_bytes());
        out.extend_from_slice(&layer.color);
        out.extend_from_slice(&layer.scale_x.to_le_bytes());
        match (v.has_scale_y(), layer.scale_y) {
            (true, y) => out.extend_from_slice(&y.unwrap_or(layer.scale_x).to_le_bytes()),
            (false, Some(y)) if y != layer.scale_x => {
                return Err(refuse(&format!("{f}.scale_y"), format!("version {v} has one scale for both axes (2.4+)")))
            }
            (false, _) => {}
        }
        out.extend_from_slice(&layer.rotation.to_le_bytes());
        out.extend_from_slice(&layer.kind.to_le_bytes());
        match (v.has_size(), layer.size) {
            (true, size) => {
                for value in size.unwrap_or([0, 0]) {
                    out.extend_from_slice(&value.to_le_bytes());
                }
            }
            (false, Some(_)) => {
                return Err(refuse(&format!("{f}.size"), format!("version {v} has no layer size (2.5+)")))
            }
            (false, None) => {}
        }
    }
    out.extend_from_slice(&motion.event.to_le_bytes());
    if v.has_anchors() {
        u32_count(out, motion.anchors.len(), &format!("{field}.anchors"))?;
        for anchor in &motion.anchors {
            out.extend_from_slice(&anchor.unknown);
            for value in [anchor.x, anchor.y, anchor.attribute] {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
    } else if !motion.anchors.is_empty() {
        return Err(refuse(&format!("{field}.anchors"), format!("version {v} has no anchors (2.3+)")));
    }
    Ok(())
}

/// The 40 bytes of an event name: its raw bytes while they still decode to the text, else the text in
/// CP949, zero-padded.
fn event_bytes(name: &Name, field: &str) -> Result<Vec<u8>> {
    if let Some(raw) = name.usable_raw().filter(|raw| raw.len() == EVENT_NAME_LEN) {
        return Ok(raw.to_vec());
    }
    crate::ragnarok::rsm::read::encode_text(&name.text, true)
        .ok_or_else(|| refuse(field, format!("`{}` does not fit a 40-byte CP949 field", name.text)))
}

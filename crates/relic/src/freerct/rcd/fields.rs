//! Game block bodies read into JSON objects and written back from them, driven by one [`Layout`] table
//! (`layouts.rs`) in both directions. Enumerations are written by name (unknown values stay numbers);
//! sprite references are block numbers (0 = none becomes `null`), or `{"block": n, …}` objects in the
//! document `relic convert` writes, which says where each sprite's PNG is.

use serde_json::{json, Map, Value};

use super::layouts::{name_of, value_of, Field, Kind, Layout, COLOUR_RANGES};
use super::text::{read_cstring, CString};
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Reads a body by its layout. The reader must end exactly at the body's end (checked by the caller).
pub fn read(layout: &Layout, r: &mut Reader<'_>) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for field in layout.fields {
        read_field(field, r, &mut out, layout.magic)?;
    }
    Ok(out)
}

fn sprite_value(v: u32) -> Value {
    if v == 0 {
        Value::Null
    } else {
        json!(v)
    }
}

fn read_field(field: &Field, r: &mut Reader<'_>, out: &mut Map<String, Value>, magic: &str) -> Result<()> {
    let name = field.name;
    let at = |f: &str| format!("{magic}.{f}");
    let value = match field.kind {
        Kind::U8 => json!(r.u8(&at(name))?),
        Kind::U16 => json!(r.u16(&at(name))?),
        Kind::I16 => json!(r.i16(&at(name))?),
        Kind::U32 => json!(r.u32(&at(name))?),
        Kind::I32 => json!(r.i32(&at(name))?),
        Kind::Enum8(names) => named(names, u32::from(r.u8(&at(name))?)),
        Kind::Enum16(names) => named(names, u32::from(r.u16(&at(name))?)),
        Kind::Sprite | Kind::Ref(_) => sprite_value(r.u32(&at(name))?),
        Kind::Recolour => recolour_json(r.u32(&at(name))?),
        Kind::Bytes(n) => json!(hex::encode(r.bytes(n, &at(name))?)),
        Kind::CStr => serde_json::to_value(read_cstring(r, &at(name))?).unwrap_or(Value::Null),
        Kind::Sprites(names) => {
            let mut m = Map::new();
            for n in names {
                m.insert((*n).to_string(), sprite_value(r.u32(&at(&format!("{name}.{n}")))?));
            }
            Value::Object(m)
        }
        Kind::Views(outer, inner) => {
            let mut views = Map::new();
            for o in outer {
                let mut m = Map::new();
                for n in inner {
                    m.insert((*n).to_string(), sprite_value(r.u32(&at(&format!("{name}.{o}.{n}")))?));
                }
                views.insert((*o).to_string(), Value::Object(m));
            }
            Value::Object(views)
        }
        Kind::Records(fields) => {
            let count = u64::from(r.u16(&at(&format!("{name}.count")))?);
            read_records(fields, count, r, &at(&format!("{name}.count")), magic)?
        }
        Kind::Records8(fields) => {
            let count = u64::from(r.u8(&at(&format!("{name}.count")))?);
            read_records(fields, count, r, &at(&format!("{name}.count")), magic)?
        }
        Kind::Records32(fields) => {
            let count = u64::from(r.u32(&at(&format!("{name}.count")))?);
            read_records(fields, count, r, &at(&format!("{name}.count")), magic)?
        }
        Kind::I8 => json!(r.i8(&at(name))?),
        Kind::RefList(_) => {
            let count = r.u16(&at(&format!("{name}.count")))?;
            let n = r.count(u64::from(count), 4, &at(&format!("{name}.count")))?;
            let mut list = Vec::with_capacity(n);
            for _ in 0..n {
                list.push(sprite_value(r.u32(&at(name))?));
            }
            Value::Array(list)
        }
        Kind::Blob32 => {
            let len = r.u32(&at(&format!("{name}.length")))?;
            let n = r.count(u64::from(len), 1, &at(&format!("{name}.length")))?;
            json!(Base64(r.bytes(n, &at(name))?.to_vec()))
        }
        Kind::Rest => json!(Base64(r.bytes(r.remaining(), &at(name))?.to_vec())),
        Kind::Curve => read_curve(r, &at(name))?,
        Kind::CarSprites => return read_cars(r, out, magic),
        Kind::Heights => {
            let (x, y) = (r.u8(&at("width_x"))?, r.u8(&at("width_y"))?);
            let mut rows = Vec::with_capacity(usize::from(x));
            for _ in 0..x {
                rows.push(json!(r.bytes(usize::from(y), &at(name))?));
            }
            out.insert("width_x".into(), json!(x));
            out.insert("width_y".into(), json!(y));
            Value::Array(rows)
        }
        Kind::Timed => {
            let count = r.u32(&at(&format!("{name}.count")))?;
            let n = r.count(u64::from(count), 8, &at(&format!("{name}.count")))?;
            let mut durations = Vec::with_capacity(n);
            for _ in 0..n {
                durations.push(r.u32(&at(&format!("{name}.duration")))?);
            }
            let mut list = Vec::with_capacity(n);
            for d in durations {
                let fset = sprite_value(r.u32(&at(&format!("{name}.frame_set")))?);
                list.push(json!({ "duration": d, "frame_set": fset }));
            }
            Value::Array(list)
        }
        Kind::SpriteList => {
            let count = r.u16(&at(&format!("{name}.count")))?;
            let n = r.count(u64::from(count), 4, &at(&format!("{name}.count")))?;
            let mut list = Vec::with_capacity(n);
            for _ in 0..n {
                list.push(sprite_value(r.u32(&at(name))?));
            }
            Value::Array(list)
        }
        Kind::FrameSet => {
            let zooms = r.u8(&at("zoom_count"))?;
            let (x, y) = (r.u8(&at("tiles_x"))?, r.u8(&at("tiles_y"))?);
            let mut widths = Vec::with_capacity(usize::from(zooms));
            for _ in 0..zooms {
                widths.push(json!(r.u16(&at("zoom_widths"))?));
            }
            let per_view = usize::from(x) * usize::from(y) * usize::from(zooms);
            r.count(4 * per_view as u64, 4, &at("views"))?;
            out.insert("tiles_x".into(), json!(x));
            out.insert("tiles_y".into(), json!(y));
            out.insert("zoom_widths".into(), Value::Array(widths));
            // docs/formats/freerct.md#fset: x outermost, then y, then zoom innermost.
            let mut views = Map::new();
            for view in ["ne", "se", "sw", "nw"] {
                let mut xs = Vec::with_capacity(usize::from(x));
                for _ in 0..x {
                    let mut ys = Vec::with_capacity(usize::from(y));
                    for _ in 0..y {
                        let mut zs = Vec::with_capacity(usize::from(zooms));
                        for _ in 0..zooms {
                            zs.push(sprite_value(r.u32(&at(&format!("views.{view}")))?));
                        }
                        ys.push(Value::Array(zs));
                    }
                    xs.push(Value::Array(ys));
                }
                views.insert(view.into(), Value::Array(xs));
            }
            out.insert("views".into(), Value::Object(views));
            return Ok(());
        }
    };
    out.insert(name.to_string(), value);
    Ok(())
}

/// Bytes of a fixed-size field (records hold only such fields).
fn fixed_size(kind: Kind) -> usize {
    match kind {
        Kind::U8 | Kind::I8 | Kind::Enum8(_) => 1,
        Kind::U16 | Kind::I16 | Kind::Enum16(_) => 2,
        Kind::U32 | Kind::I32 | Kind::Sprite | Kind::Ref(_) | Kind::Recolour => 4,
        Kind::Bytes(n) => n,
        Kind::Sprites(names) => 4 * names.len(),
        Kind::Views(a, b) => 4 * a.len() * b.len(),
        Kind::Records(_) | Kind::RefList(_) => 2,
        Kind::Blob32 | Kind::Records32(_) | Kind::Timed => 4,
        Kind::CStr
        | Kind::Records8(_)
        | Kind::SpriteList
        | Kind::FrameSet
        | Kind::Rest
        | Kind::Curve
        | Kind::CarSprites
        | Kind::Heights => 1,
    }
}

fn read_records(fields: &[Field], count: u64, r: &mut Reader<'_>, at: &str, magic: &str) -> Result<Value> {
    let size: usize = fields.iter().map(|f| fixed_size(f.kind)).sum();
    let n = r.count(count, size, at)?;
    let mut list = Vec::with_capacity(n);
    for _ in 0..n {
        let mut m = Map::new();
        for f in fields {
            read_field(f, r, &mut m, magic)?;
        }
        list.push(Value::Object(m));
    }
    Ok(Value::Array(list))
}

/// The fields of a cubic Bézier part of a TRCK curve, in file order.
const BEZIER: [&str; 6] = ["start", "last", "a", "b", "c", "d"];

fn read_curve(r: &mut Reader<'_>, at: &str) -> Result<Value> {
    let kind = r.u8(&format!("{at}.type"))?;
    Ok(match kind {
        0 => Value::Null,
        1 => json!({ "constant": r.i16(at)? }),
        2 => {
            let count = r.u8(&format!("{at}.count"))?;
            let n = r.count(u64::from(count), 16, &format!("{at}.count"))?;
            let mut parts = Vec::with_capacity(n);
            for _ in 0..n {
                let (start, last) = (r.u32(at)?, r.u32(at)?);
                let (a, b, c, d) = (r.i16(at)?, r.i16(at)?, r.i16(at)?, r.i16(at)?);
                parts.push(json!({ "start": start, "last": last, "a": a, "b": b, "c": c, "d": d }));
            }
            json!({ "bezier": parts })
        }
        // FreeRCT's loader refuses other types; relic keeps the block raw.
        n => {
            return Err(Error::invalid(FORMAT_ID, format!("{at}.type"), r.offset(), format!("unknown curve type {n}")))
        }
    })
}

fn write_curve(v: &Value, out: &mut Vec<u8>, path: &str) -> Result<()> {
    if v.is_null() {
        out.push(0);
    } else if let Some(c) = v.get("constant") {
        out.push(1);
        out.extend_from_slice(&(int(c, path, -32768, 32767)? as i16).to_le_bytes());
    } else if let Some(parts) = v.get("bezier").and_then(Value::as_array) {
        let n = u8::try_from(parts.len()).map_err(|_| bad(path, "more than 255 Bézier parts"))?;
        out.extend_from_slice(&[2, n]);
        for (i, part) in parts.iter().enumerate() {
            let p = format!("{path}.bezier[{i}]");
            for (k, key) in BEZIER.iter().enumerate() {
                let v = part.get(*key).ok_or_else(|| bad(&format!("{p}.{key}"), "missing"))?;
                if k < 2 {
                    out.extend_from_slice(&(int(v, &p, 0, i64::from(u32::MAX))? as u32).to_le_bytes());
                } else {
                    out.extend_from_slice(&(int(v, &p, -32768, 32767)? as i16).to_le_bytes());
                }
            }
        }
    } else {
        return Err(bad(path, "a curve is null, {\"constant\": n} or {\"bezier\": [...]}"));
    }
    Ok(())
}

/// The JSON key of car orientation `i` (pitch | roll << 4 | yaw << 8) inside its row.
fn car_key(i: usize) -> (String, String) {
    (format!("p{}_r{}", i & 15, (i >> 4) & 15), format!("y{}", (i >> 8) & 15))
}

/// CARS v4 up to its recolourings: the sprite tables as `{"z0": {"p0_r0": {"y0": n, …}, …}, …}` for the
/// cars and `{"z0": {"seat0_p0_r0": {…}}}` for the guest overlays, with only the present sprites.
fn read_cars(r: &mut Reader<'_>, out: &mut Map<String, Value>, magic: &str) -> Result<()> {
    let at = |f: &str| format!("{magic}.{f}");
    let zooms = r.u8(&at("zoom_count"))?;
    let mut widths = Vec::with_capacity(usize::from(zooms));
    for _ in 0..zooms {
        widths.push(json!(r.u16(&at("tile_widths"))?));
    }
    out.insert("tile_widths".into(), Value::Array(widths));
    out.insert("car_length".into(), json!(r.u32(&at("car_length"))?));
    out.insert("inter_car_length".into(), json!(r.u32(&at("inter_car_length"))?));
    let passengers = r.u16(&at("passengers"))?;
    out.insert("passengers".into(), json!(passengers));
    out.insert("entrances".into(), json!(r.u16(&at("entrances"))?));
    let per_zoom = 4096 * (1 + u64::from(passengers));
    r.count(per_zoom * u64::from(zooms), 4, &at("cars"))?;
    let table = |seats: Option<u16>, r: &mut Reader<'_>| -> Result<Map<String, Value>> {
        let mut zs = Map::new();
        for z in 0..zooms {
            let mut rows: Map<String, Value> = Map::new();
            for seat in 0..seats.unwrap_or(1) {
                for i in 0..4096 {
                    let n = r.u32(&at("cars"))?;
                    if n == 0 {
                        continue;
                    }
                    let (row, key) = car_key(i);
                    let row = if seats.is_some() { format!("seat{seat}_{row}") } else { row };
                    let entry = rows.entry(row).or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(m) = entry {
                        m.insert(key, json!(n));
                    }
                }
            }
            zs.insert(format!("z{z}"), Value::Object(rows));
        }
        Ok(zs)
    };
    let cars = table(None, r)?;
    let overlays = table(Some(passengers), r)?;
    out.insert("cars".into(), Value::Object(cars));
    out.insert("guest_overlays".into(), Value::Object(overlays));
    Ok(())
}

fn write_cars(m: &Map<String, Value>, out: &mut Vec<u8>, magic: &str) -> Result<()> {
    let p = |f: &str| format!("{magic}.{f}");
    let widths =
        get(m, "tile_widths", &p("tile_widths"))?.as_array().ok_or_else(|| bad(&p("tile_widths"), "must be a list"))?;
    let zooms = u8::try_from(widths.len()).map_err(|_| bad(&p("tile_widths"), "more than 255 zoom levels"))?;
    out.push(zooms);
    for w in widths {
        out.extend_from_slice(&(int(w, &p("tile_widths"), 0, 65535)? as u16).to_le_bytes());
    }
    for key in ["car_length", "inter_car_length"] {
        out.extend_from_slice(&(int(get(m, key, &p(key))?, &p(key), 0, i64::from(u32::MAX))? as u32).to_le_bytes());
    }
    let passengers = int(get(m, "passengers", &p("passengers"))?, &p("passengers"), 0, 65535)? as u16;
    out.extend_from_slice(&passengers.to_le_bytes());
    let entrances = int(get(m, "entrances", &p("entrances"))?, &p("entrances"), 0, 65535)? as u16;
    out.extend_from_slice(&entrances.to_le_bytes());
    for (field, seats) in [("cars", None), ("guest_overlays", Some(passengers))] {
        let table = get(m, field, &p(field))?.as_object().ok_or_else(|| bad(&p(field), "must be an object"))?;
        for z in 0..zooms {
            let rows = table.get(&format!("z{z}")).and_then(Value::as_object);
            for seat in 0..seats.unwrap_or(1) {
                for i in 0..4096 {
                    let (row, key) = car_key(i);
                    let row = if seats.is_some() { format!("seat{seat}_{row}") } else { row };
                    let v = rows.and_then(|r| r.get(&row)).and_then(|r| r.get(&key)).unwrap_or(&Value::Null);
                    out.extend_from_slice(&reference(v, &p(&format!("{field}.z{z}.{row}.{key}")))?.to_le_bytes());
                }
            }
        }
    }
    Ok(())
}

fn named(names: super::layouts::Names, value: u32) -> Value {
    name_of(names, value).map_or_else(|| json!(value), |n| json!(n))
}

/// A recolouring as `{source, allowed}` with colour range names; a value with bits 18–23 set, which the
/// format leaves unused, stays a number so that it is written back as it was.
pub fn recolour_json(v: u32) -> Value {
    if v & 0x00FC_0000 != 0 {
        return json!(v);
    }
    let source = (v >> 24) as usize;
    let source = COLOUR_RANGES.get(source).map_or_else(|| json!(source), |n| json!(n));
    let allowed: Vec<&str> = (0..18).filter(|i| v & (1 << i) != 0).map(|i| COLOUR_RANGES[i]).collect();
    json!({ "source": source, "allowed": allowed })
}

fn recolour_value(v: &Value, field: &str) -> Result<u32> {
    if let Some(n) = v.as_u64() {
        return u32::try_from(n).map_err(|_| bad(field, format!("{n} does not fit in 32 bits")));
    }
    let source = match v.get("source") {
        Some(Value::String(s)) => COLOUR_RANGES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .ok_or_else(|| bad(field, format!("unknown colour range `{s}`")))? as u32,
        Some(s) => s.as_u64().filter(|&n| n < 256).ok_or_else(|| bad(field, "source must be a colour range"))? as u32,
        None => return Err(bad(field, "a recolouring is a number or {source, allowed}")),
    };
    let mut bits = source << 24;
    for a in v.get("allowed").and_then(Value::as_array).into_iter().flatten() {
        let name = a.as_str().unwrap_or_default();
        let i = COLOUR_RANGES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| bad(field, format!("unknown colour range `{a}`")))?;
        bits |= 1 << i;
    }
    Ok(bits)
}

fn bad(field: &str, m: impl Into<String>) -> Error {
    Error::refused(FORMAT_ID, field, m.into())
}

/// Writes a body from its JSON object by the layout.
pub fn write(layout: &Layout, body: &Map<String, Value>, out: &mut Vec<u8>) -> Result<()> {
    for field in layout.fields {
        write_field(field, body, out, layout.magic)?;
    }
    Ok(())
}

fn get<'v>(m: &'v Map<String, Value>, name: &str, path: &str) -> Result<&'v Value> {
    m.get(name).ok_or_else(|| bad(path, "missing"))
}

fn int(v: &Value, path: &str, min: i64, max: i64) -> Result<i64> {
    v.as_i64()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| bad(path, format!("{v} is not a number in {min}..={max}")))
}

/// A sprite or block reference: `null`, a number, or an object with `block`.
pub fn reference(v: &Value, path: &str) -> Result<u32> {
    match v {
        Value::Null => Ok(0),
        Value::Object(o) => o.get("block").map_or(Ok(0), |b| reference(b, path)),
        _ => Ok(int(v, path, 0, i64::from(u32::MAX))? as u32),
    }
}

fn enum_value(names: super::layouts::Names, v: &Value, path: &str, max: i64) -> Result<i64> {
    match v.as_str() {
        Some(s) => value_of(names, s).map(i64::from).ok_or_else(|| {
            let known: Vec<&str> = names.iter().map(|(_, n)| *n).collect();
            bad(path, format!("unknown name `{s}` (known: {})", known.join(", ")))
        }),
        None => int(v, path, 0, max),
    }
}

fn write_field(field: &Field, m: &Map<String, Value>, out: &mut Vec<u8>, magic: &str) -> Result<()> {
    let path = format!("{magic}.{}", field.name);
    if let Kind::FrameSet = field.kind {
        return write_frame_set(m, out, magic);
    }
    if let Kind::CarSprites = field.kind {
        return write_cars(m, out, magic);
    }
    if let Kind::Heights = field.kind {
        let x = int(get(m, "width_x", &format!("{magic}.width_x"))?, &format!("{magic}.width_x"), 0, 255)?;
        let y = int(get(m, "width_y", &format!("{magic}.width_y"))?, &format!("{magic}.width_y"), 0, 255)?;
        out.extend_from_slice(&[x as u8, y as u8]);
        let rows = get(m, field.name, &path)?.as_array().filter(|a| a.len() == x as usize);
        for row in rows.ok_or_else(|| bad(&path, format!("must be {x} lists (width_x)")))? {
            let row = row.as_array().filter(|a| a.len() == y as usize);
            for h in row.ok_or_else(|| bad(&path, format!("must hold {y} heights (width_y)")))? {
                out.push(int(h, &path, 0, 255)? as u8);
            }
        }
        return Ok(());
    }
    let v = get(m, field.name, &path)?;
    match field.kind {
        Kind::U8 => out.push(int(v, &path, 0, 255)? as u8),
        Kind::U16 => out.extend_from_slice(&(int(v, &path, 0, 65535)? as u16).to_le_bytes()),
        Kind::I16 => out.extend_from_slice(&(int(v, &path, -32768, 32767)? as i16).to_le_bytes()),
        Kind::U32 => out.extend_from_slice(&(int(v, &path, 0, i64::from(u32::MAX))? as u32).to_le_bytes()),
        Kind::I32 => {
            out.extend_from_slice(&(int(v, &path, i64::from(i32::MIN), i64::from(i32::MAX))? as i32).to_le_bytes())
        }
        Kind::Enum8(names) => out.push(enum_value(names, v, &path, 255)? as u8),
        Kind::Enum16(names) => out.extend_from_slice(&(enum_value(names, v, &path, 65535)? as u16).to_le_bytes()),
        Kind::Sprite | Kind::Ref(_) => out.extend_from_slice(&reference(v, &path)?.to_le_bytes()),
        Kind::Recolour => out.extend_from_slice(&recolour_value(v, &path)?.to_le_bytes()),
        Kind::Bytes(n) => {
            let bytes = v.as_str().and_then(|s| hex::decode(s).ok()).filter(|b| b.len() == n);
            out.extend_from_slice(&bytes.ok_or_else(|| bad(&path, format!("must be {n} bytes in hex")))?);
        }
        Kind::CStr => {
            let s: CString = serde_json::from_value(v.clone()).map_err(|e| bad(&path, e.to_string()))?;
            s.write(out, &path)?;
        }
        Kind::Sprites(names) => {
            let o = v.as_object().ok_or_else(|| bad(&path, "must be an object of sprites"))?;
            for n in names {
                let p = format!("{path}.{n}");
                out.extend_from_slice(&reference(o.get(*n).unwrap_or(&Value::Null), &p)?.to_le_bytes());
            }
        }
        Kind::Views(outer, inner) => {
            let o = v.as_object().ok_or_else(|| bad(&path, "must be an object of views"))?;
            for view in outer {
                let p = format!("{path}.{view}");
                let sprites = o.get(*view).and_then(Value::as_object).ok_or_else(|| bad(&p, "missing"))?;
                for n in inner {
                    let p = format!("{p}.{n}");
                    out.extend_from_slice(&reference(sprites.get(*n).unwrap_or(&Value::Null), &p)?.to_le_bytes());
                }
            }
        }
        Kind::Records(fields) => {
            let list = v.as_array().ok_or_else(|| bad(&path, "must be a list"))?;
            let n = u16::try_from(list.len()).map_err(|_| bad(&path, "more than 65535 records"))?;
            out.extend_from_slice(&n.to_le_bytes());
            write_records(fields, list, out, magic, &path)?;
        }
        Kind::Records8(fields) => {
            let list = v.as_array().ok_or_else(|| bad(&path, "must be a list"))?;
            out.push(u8::try_from(list.len()).map_err(|_| bad(&path, "more than 255 records"))?);
            write_records(fields, list, out, magic, &path)?;
        }
        Kind::Records32(fields) => {
            let list = v.as_array().ok_or_else(|| bad(&path, "must be a list"))?;
            let n = u32::try_from(list.len()).map_err(|_| bad(&path, "too many records"))?;
            out.extend_from_slice(&n.to_le_bytes());
            write_records(fields, list, out, magic, &path)?;
        }
        Kind::I8 => out.push(int(v, &path, -128, 127)? as i8 as u8),
        Kind::RefList(_) => {
            let list = v.as_array().ok_or_else(|| bad(&path, "must be a list"))?;
            let n = u16::try_from(list.len()).map_err(|_| bad(&path, "more than 65535 references"))?;
            out.extend_from_slice(&n.to_le_bytes());
            for (i, s) in list.iter().enumerate() {
                out.extend_from_slice(&reference(s, &format!("{path}[{i}]"))?.to_le_bytes());
            }
        }
        Kind::Blob32 | Kind::Rest => {
            let bytes: Base64 = serde_json::from_value(v.clone()).map_err(|e| bad(&path, e.to_string()))?;
            if let Kind::Blob32 = field.kind {
                let n = u32::try_from(bytes.0.len()).map_err(|_| bad(&path, "more than 4 GiB"))?;
                out.extend_from_slice(&n.to_le_bytes());
            }
            out.extend_from_slice(&bytes.0);
        }
        Kind::Curve => write_curve(v, out, &path)?,
        Kind::Timed => {
            let list = v.as_array().ok_or_else(|| bad(&path, "must be a list of {duration, frame_set}"))?;
            let n = u32::try_from(list.len()).map_err(|_| bad(&path, "too many frames"))?;
            out.extend_from_slice(&n.to_le_bytes());
            for (i, fr) in list.iter().enumerate() {
                let d = fr.get("duration").ok_or_else(|| bad(&format!("{path}[{i}].duration"), "missing"))?;
                out.extend_from_slice(&(int(d, &path, 0, i64::from(u32::MAX))? as u32).to_le_bytes());
            }
            for (i, fr) in list.iter().enumerate() {
                let p = format!("{path}[{i}].frame_set");
                out.extend_from_slice(&reference(fr.get("frame_set").unwrap_or(&Value::Null), &p)?.to_le_bytes());
            }
        }
        // Written above.
        Kind::CarSprites | Kind::Heights => {}
        Kind::SpriteList => {
            let list = v.as_array().ok_or_else(|| bad(&path, "must be a list"))?;
            let n = u16::try_from(list.len()).map_err(|_| bad(&path, "more than 65535 sprites"))?;
            out.extend_from_slice(&n.to_le_bytes());
            for (i, s) in list.iter().enumerate() {
                out.extend_from_slice(&reference(s, &format!("{path}[{i}]"))?.to_le_bytes());
            }
        }
        // Written by `write_frame_set` above.
        Kind::FrameSet => {}
    }
    Ok(())
}

fn write_records(fields: &[Field], list: &[Value], out: &mut Vec<u8>, magic: &str, path: &str) -> Result<()> {
    for (i, rec) in list.iter().enumerate() {
        let rec = rec.as_object().ok_or_else(|| bad(&format!("{path}[{i}]"), "must be an object"))?;
        for f in fields {
            write_field(f, rec, out, magic)?;
        }
    }
    Ok(())
}

fn write_frame_set(m: &Map<String, Value>, out: &mut Vec<u8>, magic: &str) -> Result<()> {
    let p = |f: &str| format!("{magic}.{f}");
    let x = int(get(m, "tiles_x", &p("tiles_x"))?, &p("tiles_x"), 0, 255)? as usize;
    let y = int(get(m, "tiles_y", &p("tiles_y"))?, &p("tiles_y"), 0, 255)? as usize;
    let widths =
        get(m, "zoom_widths", &p("zoom_widths"))?.as_array().ok_or_else(|| bad(&p("zoom_widths"), "must be a list"))?;
    let z = u8::try_from(widths.len()).map_err(|_| bad(&p("zoom_widths"), "more than 255 zoom levels"))?;
    out.extend_from_slice(&[z, x as u8, y as u8]);
    for w in widths {
        out.extend_from_slice(&(int(w, &p("zoom_widths"), 0, 65535)? as u16).to_le_bytes());
    }
    let views = get(m, "views", &p("views"))?;
    for view in ["ne", "se", "sw", "nw"] {
        let path = p(&format!("views.{view}"));
        let xs = views.get(view).and_then(Value::as_array).filter(|a| a.len() == x);
        let xs = xs.ok_or_else(|| bad(&path, format!("must be {x} lists (tiles_x)")))?;
        for ys in xs {
            let ys = ys
                .as_array()
                .filter(|a| a.len() == y)
                .ok_or_else(|| bad(&path, format!("must hold {y} lists (tiles_y)")))?;
            for zs in ys {
                let zs = zs
                    .as_array()
                    .filter(|a| a.len() == usize::from(z))
                    .ok_or_else(|| bad(&path, format!("must hold {z} sprites (zoom_widths)")))?;
                for s in zs {
                    out.extend_from_slice(&reference(s, &path)?.to_le_bytes());
                }
            }
        }
    }
    Ok(())
}

/// Calls `visit(row, name, value)` for every sprite reference of a body (and, with `block_refs`, every
/// other block reference), in file order; `row` names the group the sprite belongs to (a view, a
/// sub-block, a frame list), which is a row of the block's sheet.
pub fn visit_refs(
    layout: &Layout,
    body: &mut Map<String, Value>,
    block_refs: bool,
    visit: &mut dyn FnMut(&str, &str, &mut Value),
) {
    for field in layout.fields {
        match field.kind {
            Kind::Ref(_) if block_refs => {
                if let Some(v) = body.get_mut(field.name) {
                    visit("", field.name, v);
                }
            }
            Kind::Sprite => {
                if let Some(v) = body.get_mut(field.name) {
                    visit("", field.name, v);
                }
            }
            Kind::Sprites(names) => {
                if let Some(Value::Object(o)) = body.get_mut(field.name) {
                    for n in names {
                        if let Some(v) = o.get_mut(*n) {
                            visit(field.name, n, v);
                        }
                    }
                }
            }
            Kind::Views(outer, inner) => {
                if let Some(Value::Object(o)) = body.get_mut(field.name) {
                    for view in outer {
                        if let Some(Value::Object(s)) = o.get_mut(*view) {
                            for n in inner {
                                if let Some(v) = s.get_mut(*n) {
                                    visit(&format!("{}.{view}", field.name), n, v);
                                }
                            }
                        }
                    }
                }
            }
            Kind::Records(fields) | Kind::Records8(fields) | Kind::Records32(fields) => {
                let visited = |f: &&&Field| match f.kind {
                    Kind::Sprite => true,
                    Kind::Ref(_) => block_refs,
                    _ => false,
                };
                let refs: Vec<&Field> =
                    fields.iter().filter(|f| matches!(f.kind, Kind::Sprite | Kind::Ref(_))).collect();
                if let Some(Value::Array(list)) = body.get_mut(field.name) {
                    for (i, rec) in list.iter_mut().enumerate() {
                        if let Value::Object(rec) = rec {
                            for f in refs.iter().filter(visited) {
                                if let Some(v) = rec.get_mut(f.name) {
                                    // One reference per record: named by its index alone (ANIM frames).
                                    let name = if refs.len() == 1 { format!("{i}") } else { format!("{i}_{}", f.name) };
                                    visit(field.name, &name, v);
                                }
                            }
                        }
                    }
                }
            }
            Kind::RefList(_) if block_refs => {
                if let Some(Value::Array(list)) = body.get_mut(field.name) {
                    for (i, v) in list.iter_mut().enumerate() {
                        visit(field.name, &format!("{i}"), v);
                    }
                }
            }
            Kind::Timed if block_refs => {
                if let Some(Value::Array(list)) = body.get_mut(field.name) {
                    for (i, fr) in list.iter_mut().enumerate() {
                        if let Some(v) = fr.get_mut("frame_set") {
                            visit(field.name, &format!("{i}"), v);
                        }
                    }
                }
            }
            Kind::CarSprites => {
                for table in ["cars", "guest_overlays"] {
                    let Some(Value::Object(zs)) = body.get_mut(table) else { continue };
                    for (z, rows) in zs.iter_mut() {
                        let Value::Object(rows) = rows else { continue };
                        for (row, sprites) in rows.iter_mut() {
                            let Value::Object(sprites) = sprites else { continue };
                            let row = if table == "cars" { format!("car_{z}_{row}") } else { format!("{z}_{row}") };
                            for (key, v) in sprites.iter_mut() {
                                visit(&row, key, v);
                            }
                        }
                    }
                }
            }
            Kind::SpriteList => {
                if let Some(Value::Array(list)) = body.get_mut(field.name) {
                    for (i, v) in list.iter_mut().enumerate() {
                        visit(field.name, &format!("{i}"), v);
                    }
                }
            }
            Kind::FrameSet => {
                if let Some(Value::Object(views)) = body.get_mut("views") {
                    for (view, xs) in views.iter_mut() {
                        for (x, ys) in xs.as_array_mut().into_iter().flatten().enumerate() {
                            for (y, zs) in ys.as_array_mut().into_iter().flatten().enumerate() {
                                for (z, v) in zs.as_array_mut().into_iter().flatten().enumerate() {
                                    visit(&format!("views.{view}"), &format!("x{x}_y{y}_z{z}"), v);
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

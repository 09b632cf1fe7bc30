//! SPR reader: header, tables at the offsets the spec computes, every picture decoded from its offset in
//! the pixel data, the hotspot table after it (spec "SPR Sprite Format", with docs/formats/dark-reign.md#spr-hotspots).

use std::collections::HashMap;

use super::rle;
use super::types::*;
use super::FORMAT_ID;
use crate::bytes::Base64;
use crate::error::{Error, Result};
use crate::reader::Reader;

/// Header field offsets, for errors about them.
pub const AT_VERSION: u64 = 4;
pub const AT_NANIMS: u64 = 8;
pub const AT_NROTS: u64 = 12;
pub const AT_SZX: u64 = 16;
pub const AT_SZY: u64 = 20;
pub const AT_NPICS: u64 = 24;
pub const AT_NSECTS: u64 = 28;

/// A header count or size, which must not be negative.
fn non_negative(value: i32, field: &str, at: u64) -> Result<u64> {
    u64::try_from(value).map_err(|_| Error::invalid(FORMAT_ID, field, at, format!("{value} is negative")))
}

/// Reads an SPR file.
pub fn parse(bytes: &[u8]) -> Result<SprDocument> {
    let mut r = Reader::new(FORMAT_ID, bytes);
    let raw = r.array::<4>("magic")?;
    let magic = Magic::from_bytes(raw)
        .ok_or_else(|| r.error_at("magic", 0, format!("expected RSPR, SSPR or LSPR, found {raw:02X?}")))?;
    let version = r.i32("version")?;
    if version != VERSION && version != VERSION_0200 {
        return Err(r.error_at("version", AT_VERSION as usize, format!("0x{version:X} (known: 0x0210, 0x0200)")));
    }
    let anims = r.i32("nanims")?;
    let rotations = r.i32("nrots")?;
    let width = r.i32("szx")?;
    let height = r.i32("szy")?;
    let npics = r.i32("npics")?;
    let nsects = r.i32("nsects")?;
    let nanims = non_negative(anims, "nanims", AT_NANIMS)?;
    let nrots = non_negative(rotations, "nrots", AT_NROTS)?;
    let w = non_negative(width, "szx", AT_SZX)? as usize;
    let h = non_negative(height, "szy", AT_SZY)? as usize;
    let npics = non_negative(npics, "npics", AT_NPICS)?;
    let nsects = non_negative(nsects, "nsects", AT_NSECTS)?;

    // Anim-index table (spec: at 32, `picnr[nanims · nrots]`).
    let frames = nanims.checked_mul(nrots).ok_or_else(|| r.error("picnr", "nanims × nrots overflows"))?;
    let n = r.count(frames, 4, "picnr")?;
    let picture_of_frames = (0..n).map(|i| r.i32(&format!("picnr[{i}]"))).collect::<Result<Vec<_>>>()?;
    // Section table (spec: 16 bytes × nsects).
    let n = r.count(nsects, 16, "sections")?;
    let mut sections = Vec::with_capacity(n);
    for i in 0..n {
        let field = |name: &str| format!("sections[{i}].{name}");
        sections.push(Section {
            first_anim: r.i32(&field("firstanim"))?,
            last_anim: r.i32(&field("lastanim"))?,
            rate: r.i32(&field("framerate"))?,
            hotspots: r.i32(&field("numhotspots"))?,
        });
    }
    // Anims table (docs/formats/dark-reign.md#spr-tables: `anims[nanims]`, each animation's section).
    let n = r.count(nanims, 4, "anims")?;
    let anim_sections = (0..n).map(|i| r.i32(&format!("anims[{i}]"))).collect::<Result<Vec<_>>>()?;
    // Picture table (docs/formats/dark-reign.md#spr-tables: npics (picoff, hotoff) pairs, then a 4-byte end marker).
    let n = r.count(npics, 8, "picoffs")?;
    let mut table = Vec::with_capacity(n);
    for i in 0..n {
        let at = r.offset();
        let picoff = r.i32(&format!("picoffs[{i}].picoff"))?;
        let picoff = u32::try_from(picoff).map_err(|_| {
            Error::invalid(FORMAT_ID, format!("picoffs[{i}].picoff"), at, format!("{picoff} is negative"))
        })?;
        table.push((picoff, r.i32(&format!("picoffs[{i}].hotoff"))?));
    }
    let at_end = r.offset();
    let end = r.i32("end marker")?;
    let end = u32::try_from(end)
        .map_err(|_| Error::invalid(FORMAT_ID, "end marker", at_end, format!("{end} is negative")))?;
    let offsets = Offsets::new(nanims, nrots, npics, nsects);

    // Pixel data: `off_bits` up to the end marker; pictures never run past it.
    let bits = r.sub(r.pos() as u64, u64::from(end), "end marker").map_err(|e| e.at_offset(at_end))?;
    let decoded = decode_pictures(&bits, &table, offsets.picoffs, (w, h), magic.is_shadow(), bytes.len())?;
    let mut pictures = Vec::with_capacity(decoded.len());
    let mut covered = Vec::with_capacity(decoded.len());
    let mut canonical = true;
    let mut next = 0u64;
    for (&(offset, hotoff), (d, len)) in table.iter().zip(decoded) {
        canonical &= u64::from(offset) == next;
        next = u64::from(offset) + len as u64;
        covered.push((u64::from(offset), next));
        let runs = (rle::encoded_counts(&d.pixels, w) != d.counts).then_some(Base64(d.counts));
        pictures.push(Picture { hotspot_index: hotoff, pixels: Some(Base64(d.pixels)), runs });
    }
    canonical &= next == u64::from(end);

    // Hotspots (docs/formats/dark-reign.md#spr-hotspots): at off_bits + end marker, an int32 count, then 3-byte records. A file that
    // ends right there has no table (the spec's layout; docs/formats/dark-reign.md#spr-no-hotspots: no hotspots, not a truncation).
    r.seek(r.pos() + end as usize, "end marker")?;
    let hotspot_table = r.remaining() > 0;
    let layout = (!canonical || !hotspot_table).then(|| PictureLayout {
        offsets: (!canonical).then(|| table.iter().map(|&(o, _)| o).collect()),
        end: (!canonical).then_some(end),
        gaps: if canonical { vec![] } else { crate::layout::gaps(bits.data(), covered) },
        hotspot_table,
    });
    let (hotspots, trailing) = if hotspot_table { hotspot_table_at(&mut r)? } else { (vec![], None) };
    Ok(SprDocument {
        format: FORMAT_ID.into(),
        magic,
        version,
        anims,
        rotations,
        width,
        height,
        picture_of_frames,
        sections,
        anim_sections,
        pictures,
        layout,
        hotspots,
        trailing,
    })
}

/// The hotspot table where `r` stands (an int32 count, then 3-byte records), and the bytes after it.
fn hotspot_table_at(r: &mut Reader<'_>) -> Result<(Vec<HotspotRecord>, Option<Base64>)> {
    let at_count = r.offset();
    let count = r.i32("hotspots.count")?;
    let count = u64::try_from(count)
        .map_err(|_| Error::invalid(FORMAT_ID, "hotspots.count", at_count, format!("{count} is negative")))?;
    let n = r.count(count, HOTSPOT_SIZE, "hotspots.count").map_err(|e| e.at_offset(at_count))?;
    let mut hotspots = Vec::with_capacity(n);
    for _ in 0..n {
        let [x, y, flag] = r.array::<3>("hotspots")?;
        hotspots.push(HotspotRecord { x, y, flag });
    }
    let rest = r.bytes(r.remaining(), "trailing")?;
    Ok((hotspots, (!rest.is_empty()).then(|| Base64(rest.to_vec()))))
}

/// Decodes every picture of the table from the pixel data `bits`, with the number of bytes each takes.
/// Pictures sharing an offset are decoded once. The pixels of all pictures together may not exceed
/// `--max-expansion` times the file's size, nor may the bytes the decoder walks (zero counts make no
/// progress), so a small hostile file cannot claim gigabytes.
fn decode_pictures(
    bits: &Reader<'_>,
    table: &[(u32, i32)],
    table_at: u64,
    (w, h): (usize, usize),
    shadow: bool,
    file_len: usize,
) -> Result<Vec<(rle::Decoded, usize)>> {
    let pixels = (w as u64).saturating_mul(h as u64);
    let max = crate::limits::current().max_pixels;
    if pixels > max {
        return Err(Error::limit(
            FORMAT_ID,
            "szx",
            AT_SZX,
            format!("{w}×{h} pixels per picture is over the limit of {max} (--max-pixels raises it)"),
        ));
    }
    // Every line takes at least `rle::min_line_bytes` (runs of at most 255 pixels; two zero runs in a row
    // are refused), so a picture needs `h` times that from its offset: a header declaring pictures larger
    // than the pixel data can encode is refused before anything is allocated.
    let need = rle::min_line_bytes(w as u64, shadow).saturating_mul(h as u64);
    if !table.is_empty() && need > bits.len() as u64 {
        return Err(Error::invalid(
            FORMAT_ID,
            "szy",
            AT_SZY,
            format!(
                "{w}×{h} pictures take at least {need} bytes of runs; the pixel data holds {} (end marker)",
                bits.len()
            ),
        ));
    }
    let total = pixels.saturating_mul(table.len() as u64);
    crate::limits::check_expansion(FORMAT_ID, "npics", total, file_len as u64).map_err(|e| e.at_offset(AT_NPICS))?;
    let budget = crate::limits::expansion_budget(file_len as u64);
    let mut walked = 0u64;
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut out: Vec<(rle::Decoded, usize)> = Vec::with_capacity(table.len());
    for (i, &(offset, _)) in table.iter().enumerate() {
        if let Some(&first) = seen.get(&offset) {
            let again = out.get(first).cloned().ok_or_else(|| Error::invalid(FORMAT_ID, "picoffs", 0, "lost"))?;
            out.push(again);
            continue;
        }
        let len = (bits.len() as u64).checked_sub(u64::from(offset)).ok_or_else(|| {
            Error::invalid(
                FORMAT_ID,
                format!("picoffs[{i}].picoff"),
                table_at + 8 * i as u64,
                format!("{offset} points past the pixel data (0x{:X} bytes up to the end marker)", bits.len()),
            )
        })?;
        if len < need {
            return Err(Error::invalid(
                FORMAT_ID,
                format!("picoffs[{i}].picoff"),
                table_at + 8 * i as u64,
                format!("{offset} leaves {len} bytes of pixel data; a {w}×{h} picture takes at least {need}"),
            ));
        }
        let mut r = bits.sub(u64::from(offset), len, "picoff")?;
        let decoded = rle::decode(&mut r, w, h, shadow).map_err(|e| e.within(format_args!("pictures[{i}]")))?;
        walked += r.pos() as u64;
        if walked > budget {
            return Err(Error::limit(
                FORMAT_ID,
                format!("pictures[{i}]"),
                r.offset(),
                "the runs walk more bytes than --max-expansion allows for this file",
            ));
        }
        seen.insert(offset, out.len());
        out.push((decoded, r.pos()));
    }
    Ok(out)
}

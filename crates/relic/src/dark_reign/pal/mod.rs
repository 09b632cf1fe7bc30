//! Dark Reign palettes (`dr-pal`, `.pal`; docs/formats/dark-reign.md#pal — the spec has no palette section): `PALS`, u32
//! 0x0102, six 256-byte planes of 6-bit values (the first three are R, G, B; the meaning of the second three
//! is unknown), then tables the game draws with (a 32 KiB RGB555 → index table at offset 1544, shading
//! tables), kept as they are.
//!
//! `relic convert x.pal` writes the JSON (`colors` at 8 bits under `--option dr-pal.scaling`, the raw 6-bit
//! planes, the tables) and a 16 × 16 swatch, a view (`swatch.view.png`). `relic pack dr-pal x.json` writes
//! it back byte for byte from the planes and tables; a colour edited in `colors` is written into the R, G and
//! B planes (its top 6 bits: both scalings give a colour whose top 6 bits are the stored value, so the edit is
//! found without knowing which one convert used), and an edited swatch is warned about. Index 0 is
//! transparent when sprites are drawn; the swatch shows every entry opaque. Index 47 is an ordinary colour
//! (docs/formats/dark-reign.md#spr-shadow: 40–47 are team 1's shades), not a shadow.

use serde::{Deserialize, Serialize};

use crate::asset::{Asset, Document, NamedAsset};
use crate::bytes::Base64;
use crate::codec::palette::{Palette, SixBitScaling};
use crate::error::{Error, Result};
use crate::reader::Reader;
use crate::registry::{Convert, ConvertInput, Format, Game, JsonContext, Kind, Magic, Probe};

pub const FORMAT_ID: &str = "dr-pal";
pub const MAGIC: &[u8; 4] = b"PALS";
/// Where the planes end and the game's tables begin.
pub const PLANES_END: usize = 8 + 6 * 256;

/// A PALS file. Read with [`Pals::read`], written with [`Pals::to_bytes`]; its JSON is `serde_json::to_value` of
/// it with `"format": "dr-pal"` added.
///
/// # Examples
///
/// ```
/// # fn main() -> relic::Result<()> {
/// use relic::codec::palette::SixBitScaling;
/// use relic::dark_reign::pal::Pals;
///
/// // `PALS`, version 0x0102, six planes of 256 six-bit values (colour 1 is pure red), no tables.
/// let mut bytes = b"PALS".to_vec();
/// bytes.extend(0x0102u32.to_le_bytes());
/// let mut planes = [[0u8; 256]; 6];
/// planes[0][1] = 63;
/// bytes.extend(planes.concat());
/// let pals = Pals::read(&bytes)?;
/// assert_eq!(pals.version, 0x0102);
/// assert_eq!(pals.palette(SixBitScaling::default()).colors[1], [255, 0, 0, 255]);
/// assert!(pals.tables.0.is_empty());
/// assert_eq!(pals.to_bytes()?, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pals {
    pub version: u32,
    /// Six planes of 256 values each: R, G, B, then three of unknown meaning. Stored values may use all 8
    /// bits; the colour is their low 6.
    pub planes: Vec<Base64>,
    /// Everything after the planes (the RGB555 → index table, shading tables), as stored.
    pub tables: Base64,
}

pub fn parse(data: &[u8]) -> Result<Pals> {
    let mut r = Reader::new(FORMAT_ID, data);
    if r.bytes(4, "magic")? != MAGIC {
        return Err(r.error_at("magic", 0, "expected `PALS`"));
    }
    let version = r.u32("version")?;
    let mut planes = Vec::with_capacity(6);
    for i in 0..6 {
        planes.push(Base64(r.bytes(256, &format!("planes[{i}]"))?.to_vec()));
    }
    let tables = Base64(r.bytes(r.remaining(), "tables")?.to_vec());
    Ok(Pals { version, planes, tables })
}

pub fn write(p: &Pals) -> Result<Vec<u8>> {
    if p.planes.len() != 6 || p.planes.iter().any(|pl| pl.0.len() != 256) {
        return Err(Error::invalid(FORMAT_ID, "planes", 8, "six planes of 256 values each"));
    }
    let mut out = Vec::with_capacity(PLANES_END + p.tables.0.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&p.version.to_le_bytes());
    for pl in &p.planes {
        out.extend_from_slice(&pl.0);
    }
    out.extend_from_slice(&p.tables.0);
    Ok(out)
}

impl Pals {
    /// The 256 colours at 8 bits.
    pub fn palette(&self, scaling: SixBitScaling) -> Palette {
        let plane = |i: usize| self.planes.get(i).map_or(&[][..], |p| p.0.as_slice());
        let (r, g, b) = (plane(0), plane(1), plane(2));
        Palette {
            colors: (0..256)
                .map(|i| {
                    let v = |p: &[u8]| scaling.scale(p.get(i).copied().unwrap_or(0));
                    [v(r), v(g), v(b), 255]
                })
                .collect(),
        }
    }
}

pub static FORMAT: Format = Format {
    extensions: &["pal"],
    notes: "Six 6-bit planes (R, G, B, three unknown) and the game's tables, kept. 6-bit to 8-bit scaling: \
            --option dr-pal.scaling=replicate ((v<<2)|(v>>4), default) or x4. convert writes the JSON and a 16x16 \
            swatch view (swatch.view.png); pack reads the JSON's planes and tables, with colours edited in \
            `colors` written into the planes (6 bits each), and warns when the swatch view was edited. \
            --palette also takes JASC-PAL, RIFF PAL, raw 768-byte RGB and 1024-byte RGBX (Ragnarok .pal).",
    probe: Probe::magic(&[Magic::prefix(MAGIC)]),
    options: &[super::SCALING_OPTION],
    document: Some(&PalFaces),
    convert: Some(&PalFaces),
    ..Format::new(FORMAT_ID, "Dark Reign palette (PALS)", Game::DarkReign, Kind::Image)
};

struct PalFaces;

impl crate::registry::Document for PalFaces {
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        let p = parse(data)?;
        Ok(serde_json::json!({
            "format": FORMAT_ID,
            "version": format!("0x{:04X}", p.version),
            "colors": 256,
            "table_bytes": p.tables.0.len(),
        }))
    }

    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        let mut value = crate::registry::document_json(FORMAT_ID, &parse(data)?)?;
        if let Some(map) = value.as_object_mut() {
            map.insert("format".into(), FORMAT_ID.into());
        }
        Ok(value)
    }

    fn from_json(&self, value: serde_json::Value, context: &JsonContext<'_>) -> Result<Vec<u8>> {
        let mut notes = Vec::new();
        let bytes = write_document(value, context.path, &mut notes)?;
        notes.into_iter().for_each(|n| context.note(n));
        Ok(bytes)
    }
}

impl Convert for PalFaces {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (data, opts) = (input.data, input.options);
        let p = parse(data)?;
        let palette = p.palette(super::scaling(opts));
        let mut doc = crate::registry::Document::to_json(&PalFaces, data)?;
        let colors: Vec<String> =
            palette.colors.iter().map(|c| format!("#{:02X}{:02X}{:02X}", c[0], c[1], c[2])).collect();
        if let Some(map) = doc.as_object_mut() {
            map.insert("colors".into(), serde_json::json!(colors));
        }
        Ok(vec![
            NamedAsset { name: Some(SWATCH_VIEW.into()), asset: Asset::Image(palette.swatch()) },
            NamedAsset { name: None, asset: Asset::Document(Document { value: doc, tables: vec![] }) },
        ])
    }
}

/// The swatch's name among the outputs (a view: `pack` reads `colors`, never the swatch).
pub const SWATCH_VIEW: &str = "swatch.view";

/// The colours `colors` holds (`#RRGGBB` each), or a located error.
fn colors_of(value: &serde_json::Value) -> Result<Option<Vec<[u8; 4]>>> {
    let Some(list) = value.get("colors") else { return Ok(None) };
    let bad = |i: usize, why: &str| Error::Refused(format!("{FORMAT_ID}: colors[{i}]: {why}"));
    let list = list.as_array().ok_or_else(|| Error::Refused(format!("{FORMAT_ID}: colors: not a list")))?;
    if list.len() != 256 {
        return Err(Error::Refused(format!("{FORMAT_ID}: colors: {} entries, not 256", list.len())));
    }
    let mut out = Vec::with_capacity(256);
    for (i, c) in list.iter().enumerate() {
        let text = c.as_str().ok_or_else(|| bad(i, "not a string"))?;
        let hex =
            text.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii()).ok_or_else(|| bad(i, "not #RRGGBB"))?;
        let channel =
            |k: usize| u8::from_str_radix(hex.get(k..k + 2).unwrap_or(""), 16).map_err(|_| bad(i, "not #RRGGBB"));
        out.push([channel(0)?, channel(2)?, channel(4)?, 255]);
    }
    Ok(Some(out))
}

/// The file from its document: the planes and tables, with colours edited in `colors` written into the R,
/// G and B planes; beside `json_path`, an edited swatch view is warned about.
fn write_document(
    mut value: serde_json::Value,
    json_path: Option<&std::path::Path>,
    notes: &mut Vec<String>,
) -> Result<Vec<u8>> {
    let colors = colors_of(&value)?;
    if let Some(map) = value.as_object_mut() {
        map.remove("format");
        map.remove("colors");
    }
    let mut pals: Pals = crate::registry::document_from_json(FORMAT_ID, value)?;
    if let Some(colors) = &colors {
        let mut edited = 0;
        for (i, c) in colors.iter().enumerate() {
            let mut changed = false;
            for (k, &channel) in c.iter().take(3).enumerate() {
                let Some(stored) = pals.planes.get_mut(k).and_then(|p| p.0.get_mut(i)) else { continue };
                // Both scalings (×4 and replicate) give an 8-bit value whose top six bits are the stored
                // value's low six, so this finds an edit whichever convert used.
                if *stored & 63 != channel >> 2 {
                    *stored = (*stored & !63) | (channel >> 2);
                    changed = true;
                }
            }
            edited += usize::from(changed);
        }
        if edited > 0 {
            notes.push(format!(
                "{FORMAT_ID}: {edited} colour{} edited in `colors`, written at 6 bits per channel (the low 2 bits \
                 of each 8-bit value are not stored)",
                if edited == 1 { "" } else { "s" }
            ));
        }
        if let Some(dir) = json_path.and_then(std::path::Path::parent) {
            let swatch = Palette { colors: colors.clone() }.swatch();
            let view = dir.join(format!("{SWATCH_VIEW}.png"));
            notes.extend(crate::export::view::view_note(&view, &swatch, "the JSON's `colors`"));
        }
    }
    write(&pals)
}

/// Typed access: the parse and the writer of the `dr-pal` codec.
impl Pals {
    /// Reads a PALS palette: the six planes and the game's tables after them, as stored.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::codec::palette::SixBitScaling;
    /// use relic::dark_reign::pal::Pals;
    ///
    /// // `PALS`, version 0x0102, six planes of 256 six-bit values (colour 1 is pure red), no tables.
    /// let mut bytes = b"PALS".to_vec();
    /// bytes.extend(0x0102u32.to_le_bytes());
    /// let mut planes = [[0u8; 256]; 6];
    /// planes[0][1] = 63;
    /// bytes.extend(planes.concat());
    /// let pals = Pals::read(&bytes)?;
    /// assert_eq!(pals.planes.len(), 6);
    /// assert_eq!(pals.planes[0].0[1], 63);
    /// assert!(Pals::read(&bytes[..100]).is_err());
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Pals> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack dr-pal`, before colours edited in the JSON's `colors`
    /// are taken): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::codec::palette::SixBitScaling;
    /// use relic::dark_reign::pal::Pals;
    ///
    /// // `PALS`, version 0x0102, six planes of 256 six-bit values (colour 1 is pure red), no tables.
    /// let mut bytes = b"PALS".to_vec();
    /// bytes.extend(0x0102u32.to_le_bytes());
    /// let mut planes = [[0u8; 256]; 6];
    /// planes[0][1] = 63;
    /// bytes.extend(planes.concat());
    /// let mut pals = Pals::read(&bytes)?;
    /// assert_eq!(pals.to_bytes()?, bytes);
    /// pals.planes[2].0[1] = 63; // colour 1 becomes magenta
    /// let edited = Pals::read(&pals.to_bytes()?)?;
    /// assert_eq!(edited.palette(SixBitScaling::default()).colors[1], [255, 0, 255, 255]);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::ConvertOptions;

    /// A PALS file by hand: entry i has R = i & 63, G = 63, B = 0; the unknown planes and tables are junk.
    fn handmade() -> Vec<u8> {
        let mut b = b"PALS".to_vec();
        b.extend(0x0102u32.to_le_bytes());
        b.extend((0..=255u8).map(|i| i & 63));
        b.extend([63u8; 256]);
        b.extend([0u8; 256]);
        b.extend((0..768).map(|i| (i * 7 % 256) as u8));
        b.extend([0xAB; 40]);
        b
    }

    #[test]
    fn reads_the_planes_and_writes_back() {
        let bytes = handmade();
        let p = parse(&bytes).unwrap();
        let pal = p.palette(SixBitScaling::Replicate);
        assert_eq!(pal.colors[47], [(47 << 2) | (47 >> 4), 255, 0, 255]);
        assert_eq!(p.palette(SixBitScaling::Times4).colors[63], [252, 252, 0, 255]);
        assert_eq!(write(&p).unwrap(), bytes);
        let codec = &FORMAT;
        assert_eq!(codec.from_json(codec.to_json(&bytes).unwrap(), &Default::default()).unwrap(), bytes);
        let assets = codec.convert(&crate::registry::ConvertInput::new(&bytes, &ConvertOptions::default())).unwrap();
        let Asset::Document(d) = &assets[1].asset else { panic!() };
        assert_eq!(d.value["colors"][1], "#04FF00");
        // The JSON `convert` writes packs back too (its colours are informational).
        assert_eq!(codec.from_json(d.value.clone(), &Default::default()).unwrap(), bytes);
        crate::testing::check_robustness(&bytes, false, |b| parse(b).and_then(|p| write(&p)));
        assert!(parse(&bytes[..PLANES_END - 1]).is_err());
    }
}

//! Evil Islands MP files (`ei-mp`): the header of a map — its size in sectors, maximum altitude, texture
//! atlases, materials, the ground type of every atlas tile and the animated tiles. The terrain itself is in
//! the map's SEC files (`ei-sec`, `<map>XXXYYY.sec`); the game keeps both in a `.mpr` RES archive.
//!
//! Layout (spec "MP", corrected by docs/formats/evil-islands.md#mp-header): magic `72 F6 4A CE`; f32 max altitude; u32 sectors x,
//! sectors y, texture count, texture size, tile count, tile size; **u16** material count then u32 animated
//! tile count (unaligned, 38-byte header); 44-byte materials (u32 type, RGBA f32, self-illumination, wave
//! multiplier, warp speed, 12 unknown bytes kept as `unk_0x20`); `tile count` u32 ground types; (u16 start,
//! u16 length) animated tiles. Bytes after them (none seen) are kept as `trailing`.
//!
//! Conversion (`relic convert zone.mp`, with `zoneXXXYYY.sec` beside it, or `relic convert zone.mpr`):
//! `zone.mp.json` (the MP's data — `pack ei-mp` reads it back — and a `terrain` summary),
//! `zone.mp/terrain.view.glb` (land and water meshes, tile UVs into the atlases `zoneNNN.mmp`, embedded when
//! found in `--textures` or beside the file) and `zone.mp/heightmap.view.png` (16-bit stored altitudes of
//! the sectors present, from the first to the last along x and y — cropped with a note when the header
//! claims more, refused over `--max-pixels`; both are views: `pack ei-mp` never reads them); see [`terrain`]
//! for the geometry.
//!
//! Unsettled (docs/formats/evil-islands.md#mp-materials and the spec's silences): the material type enum (the spec's table and the one
//! real map disagree; kept as a number); whether altitudes divide by 65535 or 65534 (relic: 65535, the spec);
//! which way a tile's rotation turns and where atlas rows start (relic follows two public engine
//! re-implementations: clockwise seen from above, rows from the bottom of the stored image); one
//! re-implementation also samples only the inner 48 × 48 pixels of a 64-pixel tile (an 8-pixel border),
//! which relic does not (the whole tile is mapped).

pub mod atlas;
pub mod convert;
pub mod mpr;
pub mod read;
pub mod terrain;
pub mod types;
pub mod write;

pub use read::parse;
pub use types::{AnimatedTile, Material, Mp, Rgba};
pub use write::write;

use std::path::Path;

use crate::asset::NamedAsset;
use crate::error::Result;
use crate::registry::{Convert, ConvertInput, FileFormat, Format, Game, Kind, Magic, Probe, Typed};

pub const FORMAT_ID: &str = "ei-mp";

pub static FORMAT: Format = Format {
    extensions: &["mp"],
    notes: "magic 72F64ACE. convert x.mp reads the sectors x000000.sec … beside it (or convert the .mpr RES \
            that holds them) and writes x.mp.json (the map's data and a terrain summary; the source pack reads), x.mp/terrain.view.glb (land, \
            and water as a second alpha-blended mesh; atlases xNNN.mmp embedded when found in --textures (a \
            folder or RES) or beside the file) and x.mp/heightmap.view.png (16-bit); the glTF and the height map are views, not packed back. glTF is y-up: (x, height, -y). \
            Unsettled: the material type enum; tile rotation turns clockwise seen from above and atlas rows \
            count from the bottom of the stored image (as public engine re-implementations do).",
    probe: Probe::magic(&[Magic::prefix(&types::MAGIC)]),
    // The height map (`--to png`).
    extra_targets: &["png"],
    document: Some(&Typed::<Mp>::FACE),
    convert: Some(&MpConvert),
    ..Format::new(FORMAT_ID, "Evil Islands MP (map header)", Game::EvilIslands, Kind::Model)
};

impl FileFormat for Mp {
    const ID: &'static str = FORMAT_ID;

    fn parse(bytes: &[u8]) -> Result<Self> {
        parse(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    fn info(&self, bytes: &[u8]) -> Result<serde_json::Value> {
        Ok(convert::info(self, bytes.len()))
    }

    fn to_document(&self) -> Result<serde_json::Value> {
        crate::registry::tagged_document_json(FORMAT_ID, self)
    }

    fn from_document(value: serde_json::Value) -> Result<Self> {
        let mut value = value;
        // The document `convert` writes has a `terrain` summary beside the map's data: not part of the file.
        if let Some(fields) = value.as_object_mut() {
            fields.remove("terrain");
        }
        crate::registry::tagged_document_from_json(FORMAT_ID, value)
    }
}

struct MpConvert;

impl Convert for MpConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        let (mp, opts) = (parse(input.data)?, input.options);
        if let Some(path) = input.path {
            let map = map_name(path);
            let dir = path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
            let sectors = dir.map(|d| convert::sectors_in_folder(d, &map, opts)).unwrap_or_default();
            let atlases = atlas::AtlasSource::open(opts.textures.as_deref(), dir)?;
            return convert::convert_map(&map, &mp, sectors, &atlases, opts);
        }
        // A map that is not on disk finds its sectors and atlases among the files of its folder, when the
        // caller gives them (the browser's files), as a map on disk does in its folder.
        if let (Some(files), Some(name)) = (opts.nearby.folder(), opts.nearby.entry_name()) {
            let map = map_name(Path::new(name));
            let sectors = convert::sectors_in(files.as_ref(), &map);
            let atlases = match opts.textures.as_deref() {
                Some(_) => atlas::AtlasSource::open(opts.textures.as_deref(), None)?,
                None => atlas::AtlasSource::Lookup(std::sync::Arc::clone(files)),
            };
            return convert::convert_map(&map, &mp, sectors, &atlases, opts);
        }
        convert::convert_map("map", &mp, vec![], &atlas::AtlasSource::None, opts)
    }
}

/// The map name of a file: its stem (`zone1` of `maps/zone1.mp`).
pub fn map_name(path: &Path) -> String {
    path.file_stem().map_or_else(|| "map".to_string(), |s| s.to_string_lossy().into_owned())
}

/// Typed access: the parse and the writer of the `ei-mp` codec.
impl Mp {
    /// Reads an MP file (the map's header; its terrain is in the SEC files).
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mp::Mp;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/isle.mp")?;
    /// let mp = Mp::read(&bytes)?;
    /// assert_eq!(mp.max_altitude.get(), 40.0);
    /// assert_eq!((mp.sectors_x, mp.sectors_y), (2, 1));
    /// assert_eq!((mp.materials.len(), mp.tile_types.len(), mp.animated_tiles.len()), (2, 64, 1));
    /// # Ok(()) }
    /// ```
    pub fn read(bytes: &[u8]) -> Result<Mp> {
        parse(bytes)
    }

    /// The file's bytes (the writer of `relic pack ei-mp`): those read, when nothing was edited.
    ///
    ///
    /// # Examples
    ///
    /// ```
    /// # fn main() -> relic::Result<()> {
    /// use relic::evil_islands::mp::Mp;
    ///
    /// let bytes = std::fs::read("../../samples/evil_islands/isle.mp")?;
    /// let mut mp = Mp::read(&bytes)?;
    /// assert_eq!(mp.to_bytes()?, bytes);
    /// mp.tile_types[0] = 6; // water
    /// assert_eq!(Mp::read(&mp.to_bytes()?)?.tile_types[0], 6);
    /// # Ok(()) }
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(self)
    }
}

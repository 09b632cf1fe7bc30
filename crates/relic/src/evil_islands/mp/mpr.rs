//! `.mpr` archives: a RES holding a map's MP and its SEC sectors (`ZONE.MP`, `ZONE000001.SEC`, …; names
//! compared case-insensitively, docs/formats/evil-islands.md#mpr). The RES format's codec hands files of this extension to
//! [`MPR_CODEC`], which is the RES codec in every face but conversion: `relic convert zone.mpr` converts
//! the map as a whole, as `relic convert zone.mp` does with the sectors beside it.

use std::path::Path;

use crate::asset::{Entry, NamedAsset};
use crate::codec::text::{decode, CP1251};
use crate::error::{Error, Result};
use crate::evil_islands::{res, sec};
use crate::registry::{Codec, ConvertOptions, FolderFile, PackRequest};

/// The codec of `.mpr` files.
pub static MPR_CODEC: MprCodec = MprCodec;

pub struct MprCodec;

fn inner() -> &'static dyn Codec {
    res::FORMAT.codec
}

impl Codec for MprCodec {
    fn sniff(&self, head: &[u8]) -> bool {
        inner().sniff(head)
    }
    fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        inner().info(data)
    }
    fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        inner().to_json(data)
    }
    fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        inner().write_json(value)
    }
    fn entries<'a>(&self, data: &'a [u8], archive_name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        inner().entries(data, archive_name)
    }
    fn entry_table<'a>(
        &self,
        data: &'a [u8],
        archive_name: &str,
    ) -> Option<Result<Box<dyn crate::registry::EntryTable<'a> + 'a>>> {
        inner().entry_table(data, archive_name)
    }
    fn pack_folder(&self, files: Vec<FolderFile>, request: &PackRequest, out: &mut dyn std::io::Write) -> Result<u64> {
        inner().pack_folder(files, request, out)
    }

    fn converts_whole(&self) -> bool {
        true
    }

    fn convert(&self, data: &[u8], opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        convert_mpr(data, None, opts)
    }

    fn convert_at(&self, data: &[u8], path: &Path, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        convert_mpr(data, Some(path), opts)
    }
}

fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Converts the map a `.mpr` holds (its atlases looked up in `--textures`, else beside `path`).
pub fn convert_mpr(data: &[u8], path: Option<&Path>, opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
    let archive = res::parse(data)?;
    let names: Vec<String> = (0..archive.len()).map(|i| decode(CP1251, archive.name(i))).collect();
    let stem = path.map(super::map_name);
    let headers: Vec<usize> = (0..names.len())
        .filter(|&i| {
            names.get(i).and_then(|n| crate::registry::extension_of(n)).is_some_and(|e| e.eq_ignore_ascii_case("mp"))
        })
        .collect();
    let pick = headers
        .iter()
        .copied()
        .find(|&i| {
            let n = names.get(i).map_or("", |n| base_name(n));
            stem.as_deref()
                .is_some_and(|s| n.len() == s.len() + 3 && n.get(..s.len()).is_some_and(|p| p.eq_ignore_ascii_case(s)))
        })
        .or_else(|| headers.first().copied())
        .ok_or_else(|| Error::Unsupported("this .mpr archive holds no .mp map header".into()))?;
    let header_name = names.get(pick).map_or("map.mp", |n| base_name(n));
    let map = header_name.get(..header_name.len().saturating_sub(3)).unwrap_or(header_name).to_string();
    let mp = super::parse(archive.data(pick)).map_err(|e| Error::Refused(format!("{header_name}: {e}")))?;
    let mut sectors = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let base = base_name(name);
        let Some((prefix, x, y)) = sec::sector_name(base) else { continue };
        if prefix.eq_ignore_ascii_case(&map) {
            sectors.push((x, y, base.to_string(), archive.data(i).to_vec()));
        }
    }
    sectors.sort_by_key(|s| (s.1, s.0));
    let dir = path.and_then(Path::parent).map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
    let atlases = super::atlas::AtlasSource::open(opts.textures.as_deref(), dir)?;
    super::convert::convert_map(&map, &mp, sectors, &atlases, opts)
}

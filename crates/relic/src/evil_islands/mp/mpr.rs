//! `.mpr` archives: a RES holding a map's MP and its SEC sectors (`ZONE.MP`, `ZONE000001.SEC`, …; names
//! compared case-insensitively, docs/formats/evil-islands.md#mpr). The RES format's name probe hands files of this extension to
//! [`MPR_FORMAT`], which is the RES format in every face but conversion: `relic convert zone.mpr` converts
//! the map as a whole, as `relic convert zone.mp` does with the sectors beside it.

use std::path::Path;

use crate::asset::NamedAsset;
use crate::codec::text::{decode, CP1251};
use crate::error::{Error, Result};
use crate::evil_islands::{res, sec};
use crate::registry::{Convert, ConvertInput, ConvertOptions, Format, Probe};

/// A RES named `.mpr`: the RES format in every face but conversion (the RES format's name probe picks it).
pub static MPR_FORMAT: Format = Format {
    probe: Probe::magic(&res::RES_MAGIC),
    convert: Some(&MprConvert),
    archive: Some(&res::ResArchive { whole: true }),
    ..res::FORMAT
};

struct MprConvert;

impl Convert for MprConvert {
    fn convert(&self, input: &ConvertInput<'_>) -> Result<Vec<NamedAsset>> {
        convert_mpr(input.data, input.path, input.options)
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

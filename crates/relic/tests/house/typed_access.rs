//! The typed API (`relic::ragnarok::rsm::Rsm::read(&bytes)` and the like) is the registry's codec under
//! another door: for every sample in `samples/`, the typed reading gives the JSON `relic convert --to json`
//! gives (the codec's `to_json`), and `to_bytes` gives the file's bytes back exactly. Every registered format
//! must have its typed counterpart in [`TYPED`].

use std::path::PathBuf;

use relic::registry::tagged_document_json;
use serde_json::Value;

/// What the typed API makes of one file: the JSON it gives, and every file it writes back from what it
/// read (the view's and, where there is one, the owned document's).
struct Typed {
    json: Value,
    written: Vec<Vec<u8>>,
}

type Reader = fn(name: &str, bytes: &[u8]) -> relic::Result<Typed>;

fn to_value<T: serde::Serialize>(doc: &T) -> relic::Result<Value> {
    Ok(serde_json::to_value(doc).expect("documents serialise"))
}

/// Every registered format and its typed reading.
const TYPED: &[(&str, Reader)] = &[
    ("ei-res", |_, b| {
        use relic::evil_islands::res::{Res, ResDocument};
        let res = Res::read(b)?;
        let doc = ResDocument::read(b)?;
        Ok(Typed { json: to_value(&res.to_document())?, written: vec![res.to_bytes()?, doc.to_bytes()?] })
    }),
    ("ei-reg", |_, b| {
        use relic::evil_islands::reg::{Reg, RegDocument};
        let reg = Reg::read(b)?;
        Ok(Typed {
            json: to_value(&reg.to_document())?,
            written: vec![reg.to_bytes()?, RegDocument::read(b)?.to_bytes()?],
        })
    }),
    ("ei-cam", |_, b| {
        use relic::evil_islands::cam::{Cam, CamDocument};
        let doc = CamDocument::read(b)?;
        Ok(Typed { json: to_value(&doc)?, written: vec![Cam::read(b)?.to_bytes()?, doc.to_bytes()?] })
    }),
    ("ei-adb", |_, b| {
        use relic::evil_islands::adb::{Adb, AdbDocument};
        let adb = Adb::read(b)?;
        Ok(Typed {
            json: to_value(&adb.to_document())?,
            written: vec![adb.to_bytes()?, AdbDocument::read(b)?.to_bytes()?],
        })
    }),
    ("ei-mmp", |_, b| {
        use relic::evil_islands::mmp::{Mmp, MmpDocument};
        let mmp = Mmp::read(b)?;
        Ok(Typed {
            json: to_value(&mmp.to_document())?,
            written: vec![mmp.to_bytes()?, MmpDocument::read(b)?.to_bytes()?],
        })
    }),
    ("ei-db", |name, b| {
        let db = relic::evil_islands::db::DbDocument::read_named(name, b)?;
        Ok(Typed { json: to_value(&db)?, written: vec![db.to_bytes()?] })
    }),
    ("ei-mob", |_, b| {
        use relic::evil_islands::mob::{Mob, MobDocument};
        let mob = Mob::read(b)?;
        Ok(Typed {
            json: to_value(&mob.to_document())?,
            written: vec![mob.to_bytes()?, MobDocument::read(b)?.to_bytes()?],
        })
    }),
    ("ei-lnk", |_, b| {
        let lnk = relic::evil_islands::lnk::Lnk::read(b)?;
        Ok(Typed { json: tagged_document_json("ei-lnk", &lnk)?, written: vec![lnk.to_bytes()?] })
    }),
    ("ei-bon", |_, b| {
        let bon = relic::evil_islands::bon::Bon::read(b)?;
        Ok(Typed { json: tagged_document_json("ei-bon", &bon)?, written: vec![bon.to_bytes()?] })
    }),
    ("ei-fig", |_, b| {
        let fig = relic::evil_islands::fig::Fig::read(b)?;
        Ok(Typed { json: tagged_document_json("ei-fig", &fig)?, written: vec![fig.to_bytes()?] })
    }),
    ("ei-anm", |_, b| {
        let anm = relic::evil_islands::anm::Anm::read(b)?;
        Ok(Typed { json: tagged_document_json("ei-anm", &anm)?, written: vec![anm.to_bytes()?] })
    }),
    ("ei-mp", |_, b| {
        let mp = relic::evil_islands::mp::Mp::read(b)?;
        Ok(Typed { json: tagged_document_json("ei-mp", &mp)?, written: vec![mp.to_bytes()?] })
    }),
    ("ei-sec", |_, b| {
        let sec = relic::evil_islands::sec::Sec::read(b)?;
        Ok(Typed { json: tagged_document_json("ei-sec", &sec)?, written: vec![sec.to_bytes()?] })
    }),
    ("ro-grf", |_, b| {
        let grf = relic::ragnarok::grf::Grf::read(b)?;
        Ok(Typed { json: grf.to_json()?, written: vec![grf.to_bytes()?] })
    }),
    ("ro-rsm", |_, b| {
        let rsm = relic::ragnarok::rsm::Rsm::read(b)?;
        Ok(Typed { json: to_value(&rsm)?, written: vec![rsm.to_bytes()?] })
    }),
    ("ro-texture", |_, b| {
        let texture = relic::ragnarok::texture::Texture::read(b)?;
        Ok(Typed { json: texture.to_json()?, written: vec![texture.to_bytes()?] })
    }),
    ("ro-pal", |_, b| {
        let pal = relic::ragnarok::pal::RoPalette::read(b)?;
        Ok(Typed { json: pal.to_json()?, written: vec![pal.to_bytes()?] })
    }),
    ("ro-spr", |_, b| {
        let spr = relic::ragnarok::spr::Spr::read(b)?;
        let json = relic::registry::document_json("ro-spr", &relic::ragnarok::spr::SprDocument::of(&spr))?;
        Ok(Typed { json, written: vec![spr.to_bytes()?] })
    }),
    ("ro-act", |_, b| {
        let act = relic::ragnarok::act::Act::read(b)?;
        Ok(Typed { json: tagged_document_json("ro-act", &act)?, written: vec![act.to_bytes()?] })
    }),
    ("ro-rsw", |_, b| {
        let rsw = relic::ragnarok::rsw::Rsw::read(b)?;
        Ok(Typed { json: tagged_document_json("ro-rsw", &rsw)?, written: vec![rsw.to_bytes()?] })
    }),
    ("ro-gnd", |_, b| {
        let gnd = relic::ragnarok::gnd::Gnd::read(b)?;
        Ok(Typed { json: tagged_document_json("ro-gnd", &gnd)?, written: vec![gnd.to_bytes()?] })
    }),
    ("ro-gat", |_, b| {
        let gat = relic::ragnarok::gat::Gat::read(b)?;
        Ok(Typed { json: gat.to_json()?, written: vec![gat.to_bytes()?] })
    }),
    ("drakan-srsc", |_, b| {
        use relic::drakan::srsc::{Srsc, SrscDocument};
        let srsc = Srsc::read(b)?;
        Ok(Typed {
            json: to_value(&srsc.to_document())?,
            written: vec![srsc.to_bytes()?, SrscDocument::read(b)?.to_bytes()?],
        })
    }),
    ("drakan-db", |_, b| {
        let db = relic::drakan::db::DbDocument::read(b)?;
        assert_eq!(relic::drakan::db::DbFile::read(b)?, db.parsed);
        Ok(Typed { json: to_value(&db)?, written: vec![db.to_bytes()?] })
    }),
    ("dr-ftg", |_, b| {
        use relic::dark_reign::ftg::{Ftg, FtgDocument};
        let ftg = Ftg::read(b)?;
        Ok(Typed {
            json: to_value(&ftg.to_document())?,
            written: vec![ftg.to_bytes()?, FtgDocument::read(b)?.to_bytes()?],
        })
    }),
    ("dr-pal", |_, b| {
        let pals = relic::dark_reign::pal::Pals::read(b)?;
        // The codec adds the format after the fields (serde of `Pals` and `"format"`).
        let mut json = to_value(&pals)?;
        json.as_object_mut().expect("an object").insert("format".into(), "dr-pal".into());
        Ok(Typed { json, written: vec![pals.to_bytes()?] })
    }),
    ("dr-spr", |_, b| {
        let spr = relic::dark_reign::spr::SprDocument::read(b)?;
        Ok(Typed { json: to_value(&spr)?, written: vec![spr.to_bytes()?] })
    }),
    ("ro-table", |_, b| {
        let table = relic::ragnarok::table::Table::read(b)?;
        Ok(Typed { json: table.to_json()?, written: vec![table.to_bytes()?] })
    }),
    ("ro-imf", |_, b| {
        let imf = relic::ragnarok::imf::Imf::read(b)?;
        Ok(Typed { json: imf.to_json()?, written: vec![imf.to_bytes()?] })
    }),
    ("dr-ftg-spr", |_, b| {
        let sprite = relic::dark_reign::ftg_spr::FtgSprDocument::read(b)?;
        Ok(Typed { json: to_value(&sprite)?, written: vec![sprite.to_bytes()?] })
    }),
    ("freerct-rcd", |_, b| {
        let rcd = relic::freerct::rcd::Rcd::read(b)?;
        let again = relic::freerct::rcd::Rcd::from_json(&rcd.to_json())?;
        Ok(Typed { json: rcd.to_json(), written: vec![rcd.to_bytes()?, again.to_bytes()?] })
    }),
];

fn typed(id: &str) -> Reader {
    TYPED.iter().find(|(typed_id, _)| *typed_id == id).map(|(_, read)| *read).unwrap_or_else(|| {
        panic!("format {id} is registered but has no typed counterpart in tests/house/typed_access.rs")
    })
}

fn samples_dir() -> PathBuf {
    crate::common::samples_dir()
}

/// Reads `bytes` (named `name`) of `format` through the typed API and the registry, and checks they agree.
fn check(format: &relic::Format, name: &str, bytes: &[u8]) {
    let typed = typed(format.id)(name, bytes).unwrap_or_else(|e| panic!("{}: {name}: typed read: {e}", format.id));
    let registry =
        format.for_name(name).to_json(bytes).unwrap_or_else(|e| panic!("{}: {name}: registry to_json: {e}", format.id));
    assert!(typed.json == registry, "{}: {name}: the typed JSON differs from the registry's", format.id);
    assert!(!typed.written.is_empty());
    for (i, written) in typed.written.iter().enumerate() {
        assert!(written == bytes, "{}: {name}: to_bytes #{i} does not give the file back", format.id);
    }
}

#[test]
fn every_registered_format_has_a_typed_counterpart() {
    for format in relic::FORMATS {
        typed(format.id);
    }
    assert_eq!(TYPED.len(), relic::FORMATS.len(), "tests/house/typed_access.rs lists a format that is not registered");
}

#[test]
fn typed_reading_agrees_with_the_registry_on_every_sample() {
    let mut checked = std::collections::BTreeMap::<&str, usize>::new();
    for entry in walkdir::WalkDir::new(samples_dir()).sort_by_file_name() {
        let entry = entry.expect("samples/ is readable");
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let bytes = std::fs::read(entry.path()).expect("a sample is readable");
        let (format, _) = relic::registry::sniff(&bytes, &name).unwrap_or_else(|| panic!("{name} is not identified"));
        check(format, &name, &bytes);
        *checked.entry(format.id).or_default() += 1;
    }
    // Every sample its contract row names was checked (formats without a sample, never identified or known
    // by the client's table names only, are checked below).
    for row in crate::contract::ROWS.iter().filter(|r| !r.samples.is_empty()) {
        assert_eq!(checked.get(row.id), Some(&row.samples.len()), "{}: samples read through the typed API", row.id);
    }
}

/// `ro-table` has no sample: a CP949 table made here (a comment, 501 named 빨간포션, CRLF).
#[test]
fn typed_reading_agrees_with_the_registry_on_a_client_table() {
    let format = relic::registry::by_id("ro-table").expect("registered");
    let mut bytes = b"// items\r\n501#".to_vec();
    bytes.extend_from_slice(&[0xBB, 0xA1, 0xB0, 0xA3, 0xC6, 0xF7, 0xBC, 0xC7]);
    bytes.extend_from_slice(b"#\r\n");
    check(format, "idnum2itemdisplaynametable.txt", &bytes);
}

/// `dr-ftg-spr` has no magic and no extension, so `samples/` holds none: a two-frame file made here.
#[test]
fn typed_reading_agrees_with_the_registry_on_a_headerless_ftg_sprite() {
    let format = relic::registry::by_id("dr-ftg-spr").expect("registered");
    // Header: 2 frames, max 3 × 2, reserved 0; descriptors 3 × 2 at (1, 1) and 1 × 1 at (0, 0); pixels.
    let words: [u16; 12] = [2, 3, 2, 0, 3, 2, 1, 1, 1, 1, 0, 0];
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.extend([1, 2, 3, 4, 5, 6, 7]);
    check(format, "sprite.bin", &bytes);
    let sprite = relic::dark_reign::ftg_spr::FtgSprDocument::read(&bytes).expect("reads");
    assert_eq!(sprite.frames[1].pixels.as_ref().map(|p| p.0.clone()), Some(vec![7]));
}

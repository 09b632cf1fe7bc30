//! Builds the seed corpus of the fuzz targets: `relic-fuzz-seed OUT INPUT...` writes `OUT/<target>/<blake3>`
//! (for the `format` target `OUT/format/<format-id>/<blake3>`, the file behind the prefix that picks its
//! format and name) for every input file whose format a target reads, for the entries of archives among them (nested
//! archives too), and for small files made by relic's own writers in variants the inputs lack (every MMP
//! pixel format, every RSM version, every GRF version). Prints how many seeds each target got.
//!
//! A file's format is the format id of a folder it sits in (`tests/bad/ei-res/…`, `tests/regression/ei-mob/…`,
//! whose files have no extension), otherwise what the registry sniffs from its magic and name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use relic::registry::{self, Format};

/// Inputs above this size are left out (libFuzzer would cut them to `-max_len` anyway).
const MAX_SEED: usize = 4 << 20;
/// Nested archives are followed this deep.
const MAX_NESTING: u32 = 3;
/// RCD files above this size give no seeds (FreeRCT's largest data files, cut to `-max_len`, would only
/// repeat their first blocks).
const MAX_RCD: usize = 2 << 20;
/// An RCD file larger than the targets' `-max_len` (64 KiB) also gives small RCD files of its parts.
const SMALL_RCD: usize = 48 << 10;

/// The names the `view_files` target's first byte picks (keep in step with `fuzz_targets/view_files.rs`).
const VIEW_NAMES: [&str; 12] = [
    "fuzz.grf",
    "fuzz.res",
    "fuzz.act",
    "fuzz.spr",
    "data/model/fuzz.rsm",
    "fuzz.rsw",
    "fuzz.mod",
    "fuzz.ftg",
    "fuzz.sdb",
    "fuzz.mmp",
    "fuzz.mp",
    "fuzz.sec",
];

struct Seeds {
    out: PathBuf,
    counts: BTreeMap<String, usize>,
    /// Model, character, animation, texture and level records of every Drakan SRSC input, for one merged
    /// `drakan_scene` seed whose models find their animations and textures in the same file.
    scene_records: Vec<relic::drakan::srsc::NewRecord>,
}

impl Seeds {
    fn put(&mut self, target: &str, bytes: &[u8]) {
        if bytes.len() > MAX_SEED {
            return;
        }
        let dir = self.out.join(target);
        let path = dir.join(blake3::hash(bytes).to_hex().as_str());
        if path.exists() {
            return;
        }
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, bytes)) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
        *self.counts.entry(target.to_string()).or_default() += 1;
    }

    /// A seed of the `format` target: `bytes` as a file of `format` named `name`, behind the prefix that
    /// picks both (`relic_fuzz::prefix`), in `format/<id>/` (what `fuzz/run` runs a format on).
    fn put_format(&mut self, format: &Format, name: &str, bytes: &[u8]) {
        let Some(prefix) = relic_fuzz::prefix(format, name) else { return };
        let mut seed = Vec::with_capacity(prefix.len() + bytes.len());
        seed.extend_from_slice(&prefix);
        seed.extend_from_slice(bytes);
        self.put(&format!("format/{}", format.id), &seed);
    }

    /// [`Seeds::put_format`] under the format's first name (`fuzz.<its first extension>`).
    fn put_id(&mut self, id: &str, bytes: &[u8]) {
        let Some(format) = registry::by_id(id) else { return };
        let name = relic_fuzz::Faces::names(format).into_iter().next().unwrap_or_default();
        self.put_format(format, &name, bytes);
    }

    /// Seeds of one file of `format` named `name`, and of its entries when it is an archive.
    fn add(&mut self, format: &'static Format, name: &str, bytes: &[u8], depth: u32) {
        // `view_files`: the file under the name of the same extension, whole and in slices.
        let extension = |n: &str| n.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        if let Some(pick) = VIEW_NAMES.iter().position(|v| extension(v) == extension(name) && extension(name).is_some())
        {
            for mode in [0u8, 1] {
                let mut seed = vec![pick as u8, mode];
                seed.extend_from_slice(bytes);
                self.put("view_files", &seed);
            }
        }
        match format.id {
            "ei-db" => {
                // Every layout: the name picks it.
                for db_name in relic_fuzz::Faces::names(format) {
                    self.put_format(format, &db_name, bytes);
                }
                return;
            }
            "ei-reg" => {
                self.put_format(format, name, bytes);
                if let Ok(file) = relic::evil_islands::reg::parse(bytes) {
                    self.put("ei_reg_ini", relic::evil_islands::reg::convert::to_ini(&file).as_bytes());
                }
                return;
            }
            "ei-mob" => {
                self.put_format(format, name, bytes);
                self.add_mob_parts(bytes);
                return;
            }
            "ro-grf" => {
                self.put_format(format, name, bytes);
                self.add_grf_parts(bytes);
            }
            "drakan-srsc" => {
                self.put_format(format, name, bytes);
                self.put("drakan_scene", bytes);
                if let Ok(file) = relic::drakan::srsc::parse(bytes) {
                    for (i, e) in file.entries.iter().enumerate() {
                        let wanted = matches!(e.record_type, 0x0000 | 0x0001 | 0x0030 | 0x0040 | 0x0200..=0x0209 | 0x0501..=0x0503);
                        let taken = self.scene_records.iter().any(|r| r.record_type == e.record_type && r.id == e.id);
                        if wanted && !taken {
                            self.scene_records.push(relic::drakan::srsc::NewRecord {
                                record_type: e.record_type,
                                id: e.id,
                                group: 0,
                                body: file.body(i).to_vec(),
                            });
                        }
                    }
                }
                return;
            }
            "freerct-rcd" => {
                if bytes.len() <= MAX_RCD {
                    self.put_format(format, name, bytes);
                    if bytes.len() > 64 << 10 {
                        self.add_rcd_parts(bytes);
                    }
                }
                return;
            }
            _ => self.put_format(format, name, bytes),
        }
        if depth >= MAX_NESTING {
            return;
        }
        let Some(Ok(entries)) = format.entries(bytes, name) else { return };
        if bytes.len() > 64 << 10 {
            self.add_small_archive(format, &entries);
        }
        // A model `.mod`: its LNK is the entry named after the model (no extension, no magic).
        let model = (format.id == "ei-res"
            && registry::extension_of(name).is_some_and(|e| e.eq_ignore_ascii_case("mod")))
        .then(|| stem(name));
        for entry in entries {
            if entry.size > MAX_SEED as u64 {
                continue;
            }
            let Ok(data) = entry.data.bytes() else { continue };
            if model.is_some_and(|m| entry.name.eq_ignore_ascii_case(m)) {
                self.put_id("ei-lnk", &data);
            }
            if let Some((f, _)) = registry::sniff(&data, &entry.path) {
                self.add(f, &entry.path, &data, depth + 1);
            }
        }
    }

    /// A large archive also gives a small one of its first small entries (real names, times and bytes),
    /// written by relic's writer, which fits the targets' `-max_len`.
    fn add_small_archive(&mut self, format: &'static Format, entries: &[relic::asset::Entry<'_>]) {
        let small: Vec<(Vec<u8>, u32, Vec<u8>)> = entries
            .iter()
            .filter(|e| e.size <= 4096)
            .filter_map(|e| {
                let modified = e.modified.map_or(0, |t| u32::try_from(t).unwrap_or(0));
                Some((e.name_raw.to_vec(), modified, e.data.bytes().ok()?.into_owned()))
            })
            .take(8)
            .collect();
        let written = match format.id {
            "ei-res" => {
                use relic::evil_islands::res::{write_archive, PackInput, PackOptions, PackSource};
                let inputs = small
                    .into_iter()
                    .map(|(name, modified, data)| PackInput { name, modified, source: PackSource::Bytes(data) })
                    .collect();
                let mut out = Vec::new();
                write_archive(inputs, PackOptions::default(), &mut out).ok().map(|_| out)
            }
            "ro-grf" => {
                use relic::ragnarok::grf::{write_archive_bytes, PackInput, PackSource};
                let inputs = small
                    .into_iter()
                    .map(|(name, _, data)| PackInput { name, source: PackSource::Bytes(data) })
                    .collect();
                write_archive_bytes(inputs, relic::ragnarok::grf::types::VERSION_0X200).ok()
            }
            _ => None,
        };
        if let Some(bytes) = written {
            self.add(format, "small", &bytes, MAX_NESTING);
        }
    }

    /// A GRF in the parts form of the target of its version (`ro_grf_v2`: 0x200; `ro_grf_v1`: 1.x; `ro_grf_v3`:
    /// 0x300), so the fuzzer reaches the table's records; 1.x and 0x300 files also go whole to their target.
    fn add_grf_parts(&mut self, bytes: &[u8]) {
        use relic::ragnarok::grf::types::{Layout, HEADER_SIZE};
        let Ok(grf) = relic::ragnarok::grf::parse(bytes) else { return };
        let u32_at = |at: usize| bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes);
        let Some(count) = grf.header.entry_count().and_then(|c| u16::try_from(c).ok()) else { return };
        let table_at = HEADER_SIZE as u64 + grf.header.table_offset;
        let parts = || -> Option<(&'static str, Vec<u8>)> {
            let data = bytes.get(HEADER_SIZE..usize::try_from(table_at).ok()?)?;
            match grf.layout {
                Layout::V1 => {
                    // Version, count, table offset, then the data and the plain table.
                    let mut out = vec![(grf.header.version - 0x101) as u8];
                    out.extend_from_slice(&count.to_le_bytes());
                    out.extend_from_slice(&u32::try_from(grf.header.table_offset).ok()?.to_le_bytes());
                    out.extend_from_slice(bytes.get(HEADER_SIZE..)?);
                    Some(("ro_grf_v1", out))
                }
                Layout::V2 | Layout::V3 => {
                    let at = relic::codec::zlib::At { format: "ro-grf", field: "table", offset: 0 };
                    let table = relic::codec::zlib::inflate_exact(grf.table_packed, grf.table_real_size, at).ok()?;
                    let mut out = count.to_le_bytes().to_vec();
                    out.extend_from_slice(&u16::try_from(table.len()).ok()?.to_le_bytes());
                    if grf.layout == Layout::V3 {
                        out.extend_from_slice(&u32_at(usize::try_from(table_at).ok()?)?.to_le_bytes());
                        out.push(if grf.header.is_wide() {
                            0
                        } else {
                            (grf.header.seed.saturating_sub(256) as u8) | 1
                        });
                    }
                    out.extend_from_slice(&table);
                    out.extend_from_slice(data);
                    Some((if grf.layout == Layout::V3 { "ro_grf_v3" } else { "ro_grf_v2" }, out))
                }
            }
        };
        match grf.layout {
            Layout::V1 => self.put("ro_grf_v1", bytes),
            Layout::V3 => self.put("ro_grf_v3", bytes),
            Layout::V2 => {}
        }
        if let Some((target, seed)) = parts() {
            self.put(target, &seed);
        }
    }

    /// Real levels are large, and large inputs fuzz slowly: a MOB also gives small files of its own nodes,
    /// the whole tree with every node's children cut to the first three, and each node type's first two
    /// subtrees as files of their own.
    fn add_mob_parts(&mut self, bytes: &[u8]) {
        use relic::evil_islands::mob::{self, MobDocument, Node, Value};
        fn prune(node: &Node) -> Node {
            match &node.value {
                Value::Record(children) => {
                    Node { type_id: node.type_id, value: Value::Record(children.iter().take(3).map(prune).collect()) }
                }
                _ => node.clone(),
            }
        }
        let Ok(file) = mob::parse(bytes) else { return };
        let write = |nodes: Vec<Node>| mob::write_document(&MobDocument { format: mob::FORMAT_ID.into(), nodes }).ok();
        if let Some(small) = write(file.nodes.iter().map(prune).collect()) {
            self.put_id("ei-mob", &small);
        }
        let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
        for node in mob::convert::walk(&file.nodes) {
            let n = seen.entry(node.type_id).or_default();
            if *n >= 2 {
                continue;
            }
            *n += 1;
            if let Some(part) = write(vec![prune(node)]).filter(|b| b.len() <= 32 << 10) {
                self.put_id("ei-mob", &part);
            }
        }
    }

    /// A large RCD file also gives small ones: for the first two blocks of each (magic, version), a file of
    /// that block and the blocks it refers to (sprites, FSET, TEXT, recursively), renumbered, after the
    /// file's INFO block when it has one (when that is too large, with the file's smallest sprite for each
    /// of its sprites). Blocks relic keeps raw come alone (their references unknown).
    fn add_rcd_parts(&mut self, bytes: &[u8]) {
        use relic::freerct::rcd::{self, fields, layouts, Block, Body, Rcd};
        fn refs(block: &Block<'_>) -> Vec<usize> {
            let mut out = Vec::new();
            if let (Body::Fields(m), Some(layout)) = (&block.body, layouts::layout(&block.magic, block.version)) {
                fields::visit_refs(layout, &mut m.clone(), true, &mut |_, _, v| {
                    if let Ok(n) = fields::reference(v, "") {
                        out.push(n as usize);
                    }
                });
            }
            out
        }
        let Ok(file) = rcd::parse(bytes) else { return };
        let info = file.blocks.first().filter(|b| matches!(b.body, Body::Info(_)));
        let mut smallest: BTreeMap<([u8; 4], u32), &Block<'_>> = BTreeMap::new();
        for b in file.blocks.iter().filter(|b| b.is_pixels()) {
            let size = |b: &Block<'_>| match &b.body {
                Body::Pixels8 { data, .. } | Body::Pixels32 { data, .. } => data.len(),
                _ => usize::MAX,
            };
            let s = smallest.entry((b.magic, b.version)).or_insert(b);
            if size(b) < size(s) {
                *s = b;
            }
        }
        let mut seen: BTreeMap<([u8; 4], u32), usize> = BTreeMap::new();
        for (i, block) in file.blocks.iter().enumerate() {
            let n = seen.entry((block.magic, block.version)).or_default();
            if *n >= 2 || (i == 0 && info.is_some()) {
                continue;
            }
            *n += 1;
            // The block's closure under references (block numbers from 1), in file order.
            let mut wanted = std::collections::BTreeSet::from([i + 1]);
            let mut todo = vec![i + 1];
            while let Some(k) = todo.pop() {
                for r in file.blocks.get(k - 1).map(refs).unwrap_or_default() {
                    if r >= 1 && r <= file.blocks.len() && wanted.insert(r) {
                        todo.push(r);
                    }
                }
            }
            if info.is_some() {
                wanted.remove(&1);
            }
            let mut number: BTreeMap<usize, usize> = BTreeMap::new();
            let mut blocks: Vec<Block<'_>> = info.into_iter().cloned().collect();
            for &k in &wanted {
                blocks.push(file.blocks[k - 1].clone());
                number.insert(k, blocks.len());
            }
            for block in &mut blocks {
                if let (Body::Fields(m), Some(layout)) = (&mut block.body, layouts::layout(&block.magic, block.version))
                {
                    fields::visit_refs(layout, m, true, &mut |_, _, v| {
                        if let Ok(r @ 1..) = fields::reference(v, "") {
                            let to = number.get(&(r as usize)).copied().unwrap_or(0);
                            match v {
                                serde_json::Value::Object(o) => {
                                    o.insert("block".into(), to.into());
                                }
                                _ => *v = to.into(),
                            }
                        }
                    });
                }
            }
            let Ok(mut small) = rcd::write(&Rcd { version: file.version, blocks: blocks.clone() }) else { continue };
            if small.len() > SMALL_RCD {
                // Too large (a shop's frame set of big sprites): its sprites become the file's smallest.
                for b in blocks.iter_mut().filter(|b| b.is_pixels()) {
                    if let Some(s) = smallest.get(&(b.magic, b.version)) {
                        *b = (*s).clone();
                    }
                }
                let Ok(smaller) = rcd::write(&Rcd { version: file.version, blocks }) else { continue };
                small = smaller;
            }
            if small.len() <= SMALL_RCD {
                self.put_id("freerct-rcd", &small);
            }
        }
    }

    fn add_path(&mut self, path: &Path) {
        if path.is_dir() {
            let mut children: Vec<PathBuf> = match std::fs::read_dir(path) {
                Ok(dir) => dir.filter_map(Result::ok).map(|e| e.path()).collect(),
                Err(e) => {
                    eprintln!("{}: {e}", path.display());
                    return;
                }
            };
            children.sort();
            for child in children {
                self.add_path(&child);
            }
            return;
        }
        let Ok(meta) = std::fs::metadata(path) else { return };
        if meta.len() > 64 << 20 {
            return;
        }
        let Ok(bytes) = std::fs::read(path) else { return };
        let name = path.to_string_lossy();
        let by_folder =
            path.ancestors().skip(1).filter_map(|a| a.file_name()).find_map(|n| registry::by_id(&n.to_string_lossy()));
        let format = by_folder.or_else(|| registry::sniff(&bytes, &name).map(|(f, _)| f));
        if let Some(format) = format {
            // Regression files have no extension: give ei-db the name of a database.
            let name = if by_folder.is_some_and(|f| f.id == "ei-db") && registry::extension_of(&name).is_none() {
                "fuzz.db".into()
            } else {
                name
            };
            self.add(format, &name, &bytes, 0);
        }
    }

    /// Files made by relic's writers, in the variants the samples and the corpus lack.
    /// `gltf_import`: the hand-written glTF and relic's own export of every sample model.
    fn add_gltf(&mut self) {
        self.put("gltf_import", &relic::testing::hand_gltf::box_two_bones_glb());
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        for name in ["evil_islands/unit.mod", "ragnarok/pyramid.rsm", "ragnarok/pyramid.rsm2", "drakan/Sample.mod"] {
            let path = samples.join(name);
            let out = std::env::temp_dir().join(format!("relic-fuzz-seed-gltf-{}", std::process::id()));
            let request = relic::ops::ConvertRequest { force: true, ..Default::default() };
            let _ = relic::ops::convert(&[path], &out, &request, &relic::ops::Quiet);
            for entry in walk(&out) {
                if entry.extension().is_some_and(|e| e == "glb") {
                    if let Ok(bytes) = std::fs::read(&entry) {
                        self.put("gltf_import", &bytes);
                    }
                }
            }
            let _ = std::fs::remove_dir_all(&out);
        }
    }

    fn add_made(&mut self) {
        use relic::evil_islands::mmp::{self, PixelFormat};
        for format in PixelFormat::ALL {
            for (w, h) in [(4, 4), (8, 8), (8, 4), (16, 16), (3, 5)] {
                let rgba: Vec<u8> = (0..w * h * 4).map(|i| (i * 37 % 251) as u8).collect();
                for mips in [false, true] {
                    if let Ok(bytes) = mmp::encode(&rgba, w, h, format, mips) {
                        self.put_id("ei-mmp", &bytes);
                    }
                }
            }
        }
        // A flat texture: PNT3 packs it, other formats compress well.
        let flat = [0x40u8, 0x80, 0xC0, 0xFF].repeat(64);
        if let Ok(bytes) = mmp::encode(&flat, 8, 8, PixelFormat::Pnt3, false) {
            self.put_id("ei-mmp", &bytes);
        }
        // A humanoid's part hierarchy (the corpus's models have one part): three levels under the root, a
        // child written before its parent.
        use relic::evil_islands::lnk::{self, Link, Lnk};
        let links = [
            ("hp", None),
            ("bd", Some("hp")),
            ("hd", Some("bd")),
            ("rh1", Some("bd")),
            ("rh2", Some("rh1")),
            ("lh2", Some("lh1")),
            ("lh1", Some("bd")),
            ("rl1", Some("hp")),
            ("ll1", Some("hp")),
        ];
        let links = links
            .iter()
            .map(|(name, parent)| Link { name: (*name).into(), parent: parent.map(Into::into), ..Link::default() })
            .collect();
        if let Ok(bytes) = lnk::write(&Lnk { links, ..Lnk::default() }) {
            self.put_id("ei-lnk", &bytes);
        }
        // GRFs of every version relic writes: mixed and header-only (`.gnd`) 1.x entries, a Korean name, an
        // entry long enough for DES cycles and shuffled blocks.
        {
            use relic::ragnarok::grf::{self, write::encode_name, PackInput, PackSource};
            let noise: Vec<u8> = (0..1500u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
            let files: [(&str, Vec<u8>); 4] = [
                ("data/readme.txt", b"seed".to_vec()),
                ("data/map/a.gnd", (0..300u32).map(|i| (i * 7) as u8).collect()),
                ("data/텍스트/b.bin", noise),
                ("empty", Vec::new()),
            ];
            for version in grf::types::WRITE_VERSIONS {
                let inputs = files
                    .iter()
                    .filter_map(|(n, d)| {
                        Some(PackInput { name: encode_name(n).ok()?, source: PackSource::Bytes(d.clone()) })
                    })
                    .collect();
                let Ok(bytes) = grf::write_archive_bytes(inputs, version) else { continue };
                self.put_id("ro-grf", &bytes);
                self.add_grf_parts(&bytes);
                if version < grf::types::VERSION_0X200 {
                    continue;
                }
                // Entries flagged mixed and header-only (the writer enciphers them), and for 0x300 a
                // non-zero u32 before the table's sizes and GRF Editor's older header.
                let Ok(grf) = grf::parse(&bytes) else { continue };
                let mut doc = grf::convert::to_document(&grf);
                for (e, flags) in doc.entries.iter_mut().zip([0x03, 0x05, 0x03, 0x01]) {
                    e.record.flags = flags;
                }
                let mut variants = vec![doc.clone()];
                if version == grf::types::VERSION_0X300 {
                    doc.table.reserved = Some(0xDEAD_BEEF);
                    doc.header.seed = 300;
                    doc.header.raw_count += 300 + grf::types::COUNT_BIAS;
                    variants.push(doc);
                }
                for doc in variants {
                    if let Ok(bytes) = grf::write_document(&doc) {
                        self.put_id("ro-grf", &bytes);
                        self.add_grf_parts(&bytes);
                    }
                }
            }
        }
        self.add_hostile();
        for version in relic::ragnarok::spr::Version::ALL {
            self.put_id("ro-spr", &spr_seed(version));
        }
        for (major, minor) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3)] {
            if let Ok(bytes) = relic::ragnarok::rsm::write(&model(relic::ragnarok::rsm::Version::new(major, minor))) {
                self.put_id("ro-rsm", &bytes);
            }
        }
        // Client tables: a CRLF name table (501 named 빨간포션 in CP949) and an LF description table.
        self.put_id("ro-table", b"// items\r\n501#\xBB\xA1\xB0\xA3\xC6\xF7\xBC\xC7#\r\n502#White_Potion#\r\n");
        self.put_id("ro-table", b"501#\nA potion.^000000\nWeight: 7\n#\n");
    }
}

impl Seeds {
    /// The hostile files of issue 23, built as their regression tests build them (`tests/ei_hostile.rs`,
    /// `tests/dr_hostile.rs`, `relic-cli/tests/cli/reliability.rs`): chains, shared bodies and declared work the
    /// data does not hold, so the structure-aware mutators start from them.
    fn add_hostile(&mut self) {
        use hostile::*;
        // LNK: 4000 parts each hanging from the next one stored; the same chain closed into a cycle.
        let chain = lnk_chain(4000);
        self.put_id("ei-lnk", &chain);
        let mut cycle = chain;
        cycle.truncate(cycle.len() - 4);
        lnk_name(&mut cycle, b"P0000\0");
        self.put_id("ei-lnk", &cycle);
        // RES: 50,000 names in one self-looping slot (1.1 MB), and 5,000 of them (a fast seed).
        self.put_id("ei-res", &res_one_slot(50_000));
        self.put_id("ei-res", &res_one_slot(5_000));
        // RES: 300 models and their `.bon` siblings all naming one 4 KiB range.
        let data = vec![7u8; 4096];
        let mut records = Vec::new();
        for i in 0..300 {
            records.push((format!("m{i}.mod").into_bytes(), -1, 0));
            records.push((format!("m{i}.bon").into_bytes(), -1, data.len() as u32));
        }
        self.put_id("ei-res", &res_sharing(&records, &data));
        // FTG: 200 entries sharing one sprite, one overlapping it, an empty one.
        let sprite =
            Spr { nanims: 1, nrots: 1, szx: 2, szy: 1, picnr: vec![0], offsets: vec![0], ..Spr::new(&[0, 2, 5, 6]) }
                .bytes();
        let len = sprite.len() as u32;
        let mut entries: Vec<(String, u32, u32)> = (0..200).map(|i| (format!("UNIT{i}.SPR"), 12, len)).collect();
        entries.push(("PART.BIN".into(), 14, len - 2));
        entries.push(("EMPTY.BIN".into(), 12, 0));
        self.put_id("dr-ftg", &ftg_bytes(&sprite, &entries));
        // DR sprites: 1 MiB of zero counts under 4096 pictures; 1024² frames × 7 rotations of blank lines.
        let mut bits = vec![0u8; 1 << 20];
        bits.push(1);
        let zeros = Spr {
            nanims: 1,
            nrots: 1,
            szx: 1,
            szy: 1,
            picnr: vec![0],
            offsets: (0..4096).collect(),
            ..Spr::new(&bits)
        };
        self.put_id("dr-spr", &zeros.bytes());
        let blank = relic::dark_reign::spr::rle::encode(&vec![0; 1024 * 1024], 1024, false);
        let frames =
            Spr { nanims: 1, nrots: 7, szx: 1024, szy: 1024, picnr: vec![0; 7], offsets: vec![0], ..Spr::new(&blank) };
        self.put_id("dr-spr", &frames.bytes());
        // Drakan: a `.txd` of 16 texture records on one 2048² zlib body; a 1×1 texture with a 10⁹ pitch.
        for (side, pitch, count) in [(2048u32, 2048 * 3, 16u16), (1, 1_000_000_000, 1)] {
            let txd = txd(side, pitch, count);
            self.put_id("drakan-srsc", &txd);
            self.put("drakan_scene", &txd);
        }
        // MMP: 8192² PNT3 of zero runs (1,152 bytes for 256 MiB); 1×1 with 200,000 mip levels.
        self.put_id("ei-mmp", &pnt3_zero_bomb());
        self.put_id("ei-mmp", &mmp_file(1, 1, 200_000, b"8888", &vec![0; 4 * 200_000]));
        // MP: 1000 × 1000 sectors (the target converts it with one sector present).
        self.put_id("ei-mp", &mp_sectors(1000, 1000));
    }
}

/// Builders of the hostile files, copied from the regression tests (this is a separate workspace).
mod hostile {
    pub fn lnk_name(out: &mut Vec<u8>, raw: &[u8]) {
        out.extend((raw.len() as u32).to_le_bytes());
        out.extend(raw);
    }

    /// A chain of `n` parts, each hanging from the next one stored, named in lower case and referred to in
    /// upper case; the last part is the root.
    pub fn lnk_chain(n: usize) -> Vec<u8> {
        let mut out = (n as u32).to_le_bytes().to_vec();
        for i in 0..n {
            lnk_name(&mut out, format!("p{i:04}\0").as_bytes());
            if i + 1 < n {
                lnk_name(&mut out, format!("P{:04}\0", i + 1).as_bytes());
            } else {
                lnk_name(&mut out, b"");
            }
        }
        out
    }

    /// A RES whose entries `(name, next_index, size)` all point at the start of `data`.
    pub fn res_sharing(records: &[(Vec<u8>, i32, u32)], data: &[u8]) -> Vec<u8> {
        let mut out = relic::evil_islands::res::types::MAGIC.to_vec();
        let names: usize = records.iter().map(|(n, _, _)| n.len()).sum();
        for v in [records.len() as u32, 16 + data.len() as u32, names as u32] {
            out.extend(v.to_le_bytes());
        }
        out.extend(data);
        let mut name_offset = 0u32;
        for (name, next, size) in records {
            out.extend(next.to_le_bytes());
            out.extend(size.to_le_bytes());
            out.extend(16u32.to_le_bytes());
            out.extend(0u32.to_le_bytes());
            out.extend((name.len() as u16).to_le_bytes());
            out.extend(name_offset.to_le_bytes());
            name_offset += name.len() as u32;
        }
        for (name, _, _) in records {
            out.extend(name);
        }
        out
    }

    /// A RES of `n` empty entries whose five-letter names all hash to one slot, whose record loops on itself.
    pub fn res_one_slot(n: usize) -> Vec<u8> {
        let mut names = Vec::with_capacity(n);
        'all: for a in b'a'..=b'z' {
            for b in b'a'..=b'z' {
                for c in b'a'..=b'z' {
                    for d in b'a'..=b'z' {
                        let rest = 547 - i32::from(a) - i32::from(b) - i32::from(c) - i32::from(d);
                        if (i32::from(b'a')..=i32::from(b'z')).contains(&rest) {
                            names.push(vec![a, b, c, d, rest as u8]);
                            if names.len() == n {
                                break 'all;
                            }
                        }
                    }
                }
            }
        }
        let slot = relic::evil_islands::res::name_hash(&names[0], names.len());
        let records: Vec<(Vec<u8>, i32, u32)> = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| (name, if i == slot { slot as i32 } else { -1 }, 0))
            .collect();
        res_sharing(&records, &[])
    }

    /// An SPR file (spec "SPR Sprite Format" with docs/formats/dark-reign.md#spr): one section of anims 0..nanims with no
    /// hotspots, the anim-index table given, pictures at `offsets` of `bits`, an empty hotspot table.
    pub struct Spr<'a> {
        pub nanims: i32,
        pub nrots: i32,
        pub szx: i32,
        pub szy: i32,
        pub picnr: Vec<i32>,
        pub offsets: Vec<i32>,
        pub bits: &'a [u8],
    }

    impl<'a> Spr<'a> {
        pub fn new(bits: &'a [u8]) -> Spr<'a> {
            Spr { nanims: 1, nrots: 1, szx: 1, szy: 1, picnr: vec![0], offsets: vec![0], bits }
        }

        pub fn bytes(&self) -> Vec<u8> {
            let mut out = b"RSPR".to_vec();
            let mut int = |v: i32| out.extend(v.to_le_bytes());
            for v in [0x0210, self.nanims, self.nrots, self.szx, self.szy, self.offsets.len() as i32, 1] {
                int(v);
            }
            self.picnr.iter().for_each(|&v| int(v));
            [0, self.nanims - 1, 65536, 0].into_iter().for_each(&mut int);
            (0..self.nanims).for_each(|_| int(0));
            for &o in &self.offsets {
                int(o);
                int(0);
            }
            int(self.bits.len() as i32);
            out.extend(self.bits);
            out.extend(0i32.to_le_bytes());
            out
        }
    }

    /// An FTG of `entries` (name, offset, size) over `data` placed at offset 12, the directory after it.
    pub fn ftg_bytes(data: &[u8], entries: &[(String, u32, u32)]) -> Vec<u8> {
        let mut out = b"BOTG".to_vec();
        out.extend((12 + data.len() as u32).to_le_bytes());
        out.extend((entries.len() as u32).to_le_bytes());
        out.extend(data);
        for (name, offset, size) in entries {
            let mut field = [0u8; 28];
            field[..name.len()].copy_from_slice(name.as_bytes());
            out.extend(field);
            out.extend(offset.to_le_bytes());
            out.extend(size.to_le_bytes());
        }
        out
    }

    /// A `.txd` of `count` 24-bit texture records of `side`² with the given pitch, all on one zlib body of
    /// zeros (the body written once, every directory entry pointing at it).
    pub fn txd(side: u32, pitch: u32, count: u16) -> Vec<u8> {
        use relic::drakan::records::texture::{self, Texture, NO_COLOUR_KEY};
        let rows = (side as usize) * (side as usize) * 3;
        let stream = relic::codec::zlib::compress(&vec![0u8; rows], 9);
        let body = texture::write(&Texture {
            width: side,
            height: side,
            pitch,
            bits_per_pixel: 24,
            colour_key: NO_COLOUR_KEY,
            compression_level: 9,
            compressed_size: stream.len() as u32,
            data: relic::bytes::Base64(stream),
            ..Texture::default()
        });
        // Header, the body once, then the directory.
        let mut out = b"SRSC".to_vec();
        out.extend(0x0100u16.to_le_bytes());
        out.extend((12 + body.len() as u32).to_le_bytes());
        out.extend(count.to_le_bytes());
        out.extend(&body);
        for id in 1..=count {
            for v in [0x0040u16, id, 0] {
                out.extend(v.to_le_bytes());
            }
            out.extend(12u32.to_le_bytes());
            out.extend((body.len() as u32).to_le_bytes());
        }
        out
    }

    /// An MMP header (ARGB8 masks) and `body`.
    pub fn mmp_file(w: u32, h: u32, count: u32, fourcc: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut out = b"MMP\0".to_vec();
        for v in [w, h, count, u32::from_le_bytes(*fourcc), 32] {
            out.extend(v.to_le_bytes());
        }
        for (mask, shift, count) in [(0xFF00_0000u32, 24u32, 8u32), (0x00FF_0000, 16, 8), (0xFF00, 8, 8), (0xFF, 0, 8)]
        {
            for v in [mask, shift, count] {
                out.extend(v.to_le_bytes());
            }
        }
        out.extend([0; 4]);
        out.extend(body);
        out
    }

    /// An 8192×8192 PNT3 texture of zero texels, as `relic pack --pixel-format pnt3` writes one: 1,152 bytes.
    pub fn pnt3_zero_bomb() -> Vec<u8> {
        let mut words = Vec::new();
        let mut left: u64 = 8192 * 8192 * 4;
        while left > 0 {
            let run = left.min(1_000_000);
            words.extend((run as u32).to_le_bytes());
            left -= run;
        }
        mmp_file(8192, 8192, words.len() as u32, b"PNT3", &words)
    }

    /// The map header of `tests/ei_map/fixtures.rs` claiming `x` × `y` sectors.
    pub fn mp_sectors(x: u32, y: u32) -> Vec<u8> {
        let mut out = vec![0x72, 0xF6, 0x4A, 0xCE];
        out.extend(100f32.to_le_bytes());
        for v in [x, y, 1, 64, 64, 8] {
            out.extend(v.to_le_bytes());
        }
        out.extend(2u16.to_le_bytes());
        out.extend(2u32.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        [0.5f32, 0.375, 0.25, 1.0, 0.0, 1.0, 0.0].iter().for_each(|v| out.extend(v.to_le_bytes()));
        out.extend(1u8..=12);
        out.extend(3u32.to_le_bytes());
        [0.125f32, 0.25, 0.75, 0.625, 0.5, 0.5, 1.25].iter().for_each(|v| out.extend(v.to_le_bytes()));
        out.extend([0u8; 12]);
        for i in 0..64u32 {
            out.extend((i % 16).to_le_bytes());
        }
        for (start, len) in [(8u16, 4u16), (20, 2)] {
            out.extend(start.to_le_bytes());
            out.extend(len.to_le_bytes());
        }
        out
    }
}

/// The stem of a file name (`unit` of `dir/unit.mod`).
fn stem(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.rsplit_once('.').map_or(base, |(s, _)| s)
}

/// A small animated model of `version`: two meshes (a child under the root), a triangle each, key frames of
/// every kind the version has, and a volume box.
fn model(version: relic::ragnarok::rsm::Version) -> relic::ragnarok::rsm::Rsm {
    use relic::ragnarok::rsm::*;
    let mut rsm = Rsm::new(version);
    rsm.animation_length = if version.is_rsm2() { 10 } else { 1000 };
    rsm.shade_type = 2;
    let mut meshes = Vec::new();
    for (name, parent) in [("root", ""), ("child", "root")] {
        let mut m = Mesh::new(version, name);
        m.parent_name = Name::new(parent);
        if version.has_mesh_textures() {
            m.textures = vec![Name::new("t.bmp")];
        } else {
            m.texture_indices = vec![0];
        }
        m.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.5]];
        let color = version.has_vertex_colors().then_some(0xFF80_8080);
        m.tex_vertices = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]].map(|uv| TexVertex { color, uv }).to_vec();
        let smooth_groups = if version.has_smooth_groups() { vec![1] } else { vec![] };
        m.faces =
            vec![Face { vertices: [0, 1, 2], tex_vertices: [0, 1, 2], two_sided: 1, smooth_groups, ..Face::default() }];
        let end = rsm.animation_length;
        m.rotation_keys = vec![
            RotationKey { frame: 0, quaternion: [0.0, 0.0, 0.0, 1.0] },
            RotationKey { frame: end, quaternion: [0.0, 1.0, 0.0, 0.0] },
        ];
        if version.has_mesh_scale_keys() {
            m.scale_keys = vec![ScaleKey { frame: end / 2, scale: [2.0, 1.0, 1.0], data: 0.0 }];
        }
        if version.is_rsm2() {
            m.position_keys = vec![PositionKey { frame: end, position: [0.0, 1.0, 0.0], data: 0 }];
        }
        if version.has_mesh_textures() {
            m.texture_animations = vec![TextureAnimation {
                texture: 0,
                channels: vec![TextureChannel {
                    kind: texture_kind::ROTATE,
                    keys: vec![TextureKey { frame: 0, value: 0.0 }, TextureKey { frame: end, value: 1.0 }],
                }],
            }];
        }
        meshes.push(m);
    }
    if version.is_rsm2() {
        rsm.root_names = vec![Name::new("root")];
    } else {
        rsm.textures = vec![Name::new("t.bmp")];
        rsm.root_names = vec![Name::new("root")];
    }
    rsm.meshes = meshes;
    let flag = version.has_volume_box_flags().then_some(0);
    rsm.volume_boxes = Some(vec![VolumeBox { size: [1.0; 3], position: [0.0; 3], rotation: [0.0; 3], flag }]);
    rsm
}

/// `relic-fuzz-seed --regression TARGET FILE...`: copies fuzz inputs of `TARGET` into
/// `crates/relic/tests/regression/<format-id>/<blake3>`. An input of the `format` target loses its prefix and
/// goes to the format its first byte picks (or `RELIC_FUZZ_FORMAT`, when the run was pinned); a format id
/// as `TARGET` takes the input of a run pinned to it. The regression test reads each file under every name.
fn regression(target: &str, files: impl Iterator<Item = std::ffi::OsString>) {
    let fixed = match target {
        "format" => None,
        // `ro_grf_v1`, `ro_grf_v2` and `ro_grf_v3` fuzz ro-grf (their parts-form inputs need assembling by
        // hand first), `ei_reg_ini` the REG's INI.
        "ro_grf_v1" | "ro_grf_v2" | "ro_grf_v3" => Some(("ro-grf", 0)),
        "ei_reg_ini" => Some(("ei-reg", 0)),
        id if registry::by_id(id).is_some() => Some((id, relic_fuzz::PREFIX)),
        _ => {
            eprintln!("relic-fuzz-seed: no format for target {target}");
            std::process::exit(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/relic/tests/regression");
    for file in files {
        let input = std::fs::read(&file).unwrap_or_else(|e| {
            eprintln!("{}: {e}", Path::new(&file).display());
            std::process::exit(1);
        });
        let (id, bytes) = match fixed {
            Some((id, skip)) => (id.to_string(), input.get(skip..).unwrap_or_default().to_vec()),
            None => match relic_fuzz::pick(&input) {
                Some((format, _, bytes)) => (format.id.to_string(), bytes.to_vec()),
                None => {
                    eprintln!("{}: shorter than the `format` target's prefix", Path::new(&file).display());
                    std::process::exit(1);
                }
            },
        };
        let dir = root.join(&id);
        let path = dir.join(blake3::hash(&bytes).to_hex().as_str());
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &bytes)) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
        println!("crates/relic/tests/regression/{id}/{}", blake3::hash(&bytes).to_hex());
    }
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let Some(out) = args.next() else {
        eprintln!("usage: relic-fuzz-seed OUT INPUT... | --regression TARGET FILE... | --formats");
        std::process::exit(2);
    };
    if out == "--formats" {
        // The format ids `fuzz/run` runs the `format` target on, pinned one at a time, in registry order.
        for format in registry::FORMATS {
            println!("{}", format.id);
        }
        return;
    }
    if out == "--regression" {
        let target = args.next().unwrap_or_default();
        return regression(&target.to_string_lossy(), args);
    }
    let mut seeds = Seeds { out: PathBuf::from(out), counts: BTreeMap::new(), scene_records: Vec::new() };
    for input in args {
        seeds.add_path(Path::new(&input));
    }
    if !seeds.scene_records.is_empty() {
        if let Ok(merged) = relic::drakan::srsc::write_packed(0x0100, &seeds.scene_records) {
            seeds.put("drakan_scene", &merged);
        }
    }
    seeds.add_made();
    seeds.add_gltf();
    for (target, n) in &seeds.counts {
        println!("{target:<20} {n:>5} new seeds");
    }
}

/// A small sprite of `version`: two palette frames (runs of zeros across rows) and, from 2.0, an RGBA frame.
fn spr_seed(version: relic::ragnarok::spr::Version) -> Vec<u8> {
    use relic::ragnarok::spr::{AbgrFrame, PaletteFrame, Spr};
    let frame = |w: u16, h: u16, seed: u8| PaletteFrame {
        width: w,
        height: h,
        indices: (0..u32::from(w) * u32::from(h)).map(|i| if i % 7 < 4 { 0 } else { (i as u8) ^ seed }).collect(),
        rle: None,
    };
    let rgba = AbgrFrame { width: 2, height: 2, abgr: (0..16).collect() };
    let sprite = Spr {
        version,
        palette_frames: vec![frame(5, 4, 1), frame(3, 1, 9)],
        rgba_frames: if version.has_rgba() { vec![rgba] } else { Vec::new() },
        trailing: Vec::new(),
        palette: version.has_palette().then(|| std::array::from_fn(|i| [i as u8, 255 - i as u8, 7, 0])),
    };
    sprite.to_bytes().unwrap_or_default()
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

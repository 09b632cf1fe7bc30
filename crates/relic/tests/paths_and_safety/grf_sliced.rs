//! GRF archives read in slices (`relic::ragnarok::grf::SlicedGrf`, issue 31): the same listing, summary and
//! entry bytes as the whole-file parse, for every version relic writes and every GRF of `samples/` and the
//! corpus; exactly the header and table read when opening and exactly an entry's stored bytes when reading
//! it (counted by a `RandomRead` of the test's own); a sparse archive over 1 GiB opened through
//! `FileSlices` with under 1 MiB read; every truncated and flipped file refused exactly when (and as) the
//! whole-file parse refuses it; tables and entries over `--max-entry-size` refused before they are read.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use relic::ragnarok::grf::types::Layout;
use relic::ragnarok::grf::{
    self, convert, parse, write_archive_bytes, Grf, PackInput, PackSource, SlicedEntry, SlicedGrf,
};
use relic::registry::FileLookup;
use relic::source::{FileSlices, MemorySlices, RandomRead};
use relic::Error;

// =========================================================================================================
// A counting reader

/// Every `(offset, len)` read through it.
#[derive(Debug)]
struct Counted {
    inner: Arc<dyn RandomRead>,
    reads: Mutex<Vec<(u64, usize)>>,
}

impl Counted {
    fn new(inner: Arc<dyn RandomRead>) -> Arc<Counted> {
        Arc::new(Counted { inner, reads: Mutex::new(Vec::new()) })
    }

    fn memory(bytes: &[u8]) -> Arc<Counted> {
        Counted::new(Arc::new(MemorySlices::from(bytes.to_vec())))
    }

    /// The reads since the last call, emptied.
    fn take(&self) -> Vec<(u64, usize)> {
        std::mem::take(&mut *self.reads.lock().unwrap())
    }
}

impl RandomRead for Counted {
    fn len(&self) -> u64 {
        self.inner.len()
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        self.reads.lock().unwrap().push((offset, len));
        self.inner.read_at(offset, len)
    }
}

fn total(reads: &[(u64, usize)]) -> u64 {
    reads.iter().map(|&(_, n)| n as u64).sum()
}

fn open_counted(bytes: &[u8]) -> (SlicedGrf, Arc<Counted>) {
    let counted = Counted::memory(bytes);
    let grf = SlicedGrf::open(Arc::clone(&counted) as Arc<dyn RandomRead>).unwrap();
    (grf, counted)
}

// =========================================================================================================
// Fixtures

const TEXTURE: &[u8] = b"BM texture bytes, not decoded here";

/// Every kind of entry relic's writer makes: compressible text, 12,000 bytes of noise (mixed DES cycles
/// in 1.x), an empty file, a Korean (CP949) name, a `.gnd` (header-only DES in 1.x), a texture.
fn inputs() -> Vec<PackInput> {
    let noise: Vec<u8> = (0..12_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let files: Vec<(Vec<u8>, Vec<u8>)> = vec![
        (b"data\\readme.txt".to_vec(), b"Hello from a sliced GRF.\r\n".repeat(40)),
        (b"data\\noise.bin".to_vec(), noise),
        (b"data\\empty.txt".to_vec(), Vec::new()),
        (b"data\\\xC5\xD8\xBD\xBA\xC6\xAE.txt".to_vec(), "안녕".as_bytes().to_vec()),
        (b"data\\prontera.gnd".to_vec(), b"GRGN\x01\x07 a map's ground".repeat(30)),
        (b"data\\texture\\Wall.BMP".to_vec(), TEXTURE.to_vec()),
    ];
    files.into_iter().map(|(name, data)| PackInput { name, source: PackSource::Bytes(data) }).collect()
}

fn written(version: u32) -> Vec<u8> {
    write_archive_bytes(inputs(), version).unwrap()
}

/// The archives of every version relic writes.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    grf::types::WRITE_VERSIONS.iter().map(|&v| (format!("0x{v:X}"), written(v))).collect()
}

fn grfs_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            grfs_under(&p, out);
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| ["grf", "gpf"].contains(&&*e.to_lowercase())) {
            out.push(p);
        }
    }
}

/// Every GRF of `samples/` and, when it is there, of `../shared/corpus/` (saying so when it is not).
fn sample_and_corpus_grfs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    grfs_under(&root.join("samples"), &mut found);
    assert!(!found.is_empty(), "samples/ holds a GRF");
    let corpus = root.join("../shared/corpus");
    if corpus.is_dir() {
        grfs_under(&corpus, &mut found);
    } else {
        eprintln!("skipped: the corpus's GRFs ({} not found)", corpus.display());
    }
    found
}

// =========================================================================================================
// The same archive, read whole and in slices

/// What `convert::entries` lists (`relic ls`), with each entry's index in the table.
fn whole_listing(grf: &Grf<'_>) -> Vec<SlicedEntry> {
    let indices = grf.entries.iter().enumerate().filter(|(_, e)| e.record.is_file()).map(|(i, _)| i);
    convert::entries(grf)
        .into_iter()
        .zip(indices)
        .map(|(e, index)| SlicedEntry {
            index,
            name: e.name.into_owned(),
            path: e.path.into_owned(),
            size: e.size,
            record: e.record.map(|r| *r),
        })
        .collect()
}

/// The bytes of the header and table: 46, then 1.x the table to the end of the file, 0x200 and 0x300 the
/// table's own header (8 or 12 bytes) and its compressed bytes.
fn header_and_table(grf: &Grf<'_>) -> u64 {
    46 + match grf.layout {
        Layout::V1 => grf.table_packed.len() as u64,
        Layout::V2 => 8 + grf.table_packed_size,
        Layout::V3 => 12 + grf.table_packed_size,
    }
}

/// Opening reads the header and the table, nothing else; the listing, summary and every entry's bytes (or
/// error) equal the whole-file parse's, and reading an entry reads exactly its stored bytes, once.
fn assert_same_as_whole(label: &str, bytes: &[u8]) {
    let whole = parse(bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
    let (sliced, counted) = open_counted(bytes);
    let opened = counted.take();
    assert_eq!(total(&opened), header_and_table(&whole), "{label}: bytes read to open ({opened:?})");
    assert_eq!(opened.first(), Some(&(0, 46)), "{label}");
    assert_eq!(opened.len(), if whole.layout == Layout::V1 { 2 } else { 3 }, "{label}: {opened:?}");

    assert_eq!(sliced.entries(), &whole.entries[..], "{label}");
    assert_eq!((sliced.header(), sliced.layout(), sliced.signature()), (&whole.header, whole.layout, whole.signature));
    assert_eq!((sliced.len(), sliced.file_count()), (whole.len(), whole.file_count()), "{label}");
    assert_eq!(sliced.table_sizes(), (whole.table_packed_size, whole.table_real_size), "{label}");
    assert_eq!(sliced.info(), convert::info(&whole), "{label}");
    assert_eq!(sliced.listing(), whole_listing(&whole), "{label}");
    assert!(counted.take().is_empty(), "{label}: listing and info read nothing");

    for i in 0..whole.len() {
        let got = sliced.read_entry(i);
        let reads = counted.take();
        let want = whole.read_entry(i);
        match (&got, &want) {
            (Ok(g), Ok(w)) => assert!(g[..] == w[..], "{label}: entry {i} differs"),
            (Err(g), Err(w)) => assert_eq!(g.to_string(), w.to_string(), "{label}: entry {i}"),
            _ => panic!("{label}: entry {i}: sliced {:?}, whole {:?}", got.map(|b| b.len()), want.map(|b| b.len())),
        }
        let stored = whole.stored(i);
        if whole.entries[i].record.is_file() {
            let start = whole.entries[i].record.offset + 46;
            assert_eq!(reads, [(start, stored.len())], "{label}: entry {i} read once, its stored bytes");
        } else {
            assert!(reads.is_empty(), "{label}: folder record {i} read nothing");
        }
        if let Some(found) = sliced.find_ci(&whole.entries[i].name.to_uppercase()) {
            assert_eq!(Some(found), whole.find_ci(&whole.entries[i].name.to_uppercase()), "{label}");
        }
    }
    assert!(matches!(sliced.read_entry(whole.len()), Err(Error::Unsupported(m)) if m.contains("no entry")));
    assert!(counted.take().is_empty());
}

#[test]
fn every_written_version_reads_the_same_in_slices() {
    for (label, bytes) in fixtures() {
        assert_same_as_whole(&label, &bytes);
        let sliced = SlicedGrf::open(Arc::new(MemorySlices::from(bytes.clone()))).unwrap();
        let mut want: Vec<(String, u64)> = inputs()
            .into_iter()
            .map(|i| match i.source {
                PackSource::Bytes(data) => (path_of(&i.name), data.len() as u64),
                _ => unreachable!("inputs are bytes"),
            })
            .collect();
        want.sort();
        let mut listed: Vec<(String, u64)> = sliced.listing().into_iter().map(|e| (e.path, e.size)).collect();
        listed.sort();
        assert_eq!(listed, want, "{label}");
        assert!(listed.iter().any(|(p, _)| p == "data/텍스트.txt"), "{label}");
        let info = sliced.info();
        assert_eq!((info["version"].as_str(), info["files"].as_u64()), (Some(&*label), Some(6)));
        // 1.x enciphers every file; relic's 0x200 and 0x300 encipher none.
        let enciphered = if label.starts_with("0x1") { 6 } else { 0 };
        assert_eq!(info["encrypted_entries"].as_u64(), Some(enciphered), "{label}");
        let noise = sliced.find_ci("DATA/NOISE.BIN").unwrap();
        let PackSource::Bytes(want) = &inputs()[1].source else { unreachable!("inputs are bytes") };
        assert_eq!(&sliced.read_entry(noise).unwrap(), want, "{label}");
    }
}

/// The path an entry name extracts to.
fn path_of(name: &[u8]) -> String {
    relic::codec::text::decode(relic::codec::text::CP949, name).replace('\\', "/")
}

/// A 0x200 or 0x300 archive relic's writer does not make: a folder record, entries enciphered (mixed and
/// header-only, as the flags 0x03 and 0x05 ask) and an entry stored uncompressed.
fn hand_made(version: u32) -> Vec<u8> {
    use grf::des::{cycle, encipher, Cipher};
    let noise: Vec<u8> = (0..30_000u32).map(|i| (i.wrapping_mul(2_246_822_519) >> 9) as u8).collect();
    let files: [(&[u8], u8, &[u8]); 5] = [
        (b"data\\plain.txt", 0x01, b"plain text, compressed"),
        (b"data\\sub", 0x00, b""),
        (b"data\\mixed.bin", 0x03, &noise),
        (b"data\\header.bin", 0x05, &noise[..9000]),
        (b"data\\stored.raw", 0x01, b"kept as it is"),
    ];
    let mut data = Vec::new();
    let mut table = Vec::new();
    for (name, flags, content) in files {
        let (mut stored, compressed) = if name.ends_with(b".raw") {
            (content.to_vec(), content.len())
        } else {
            let packed = zlib(content);
            let n = packed.len();
            (packed, n)
        };
        stored.resize(stored.len().div_ceil(8) * 8, 0);
        match flags {
            0x03 => encipher(&mut stored, Cipher::Mixed { cycle: cycle(compressed as u32) }),
            0x05 => encipher(&mut stored, Cipher::Header),
            _ => {}
        }
        let offset = data.len() as u64;
        let (compressed, aligned, real) =
            if flags == 0 { (0, 0, 0) } else { (compressed as u32, stored.len() as u32, content.len() as u32) };
        if flags != 0 {
            data.extend_from_slice(&stored);
        }
        table.extend_from_slice(name);
        table.push(0);
        for v in [compressed, aligned, real] {
            table.extend_from_slice(&v.to_le_bytes());
        }
        table.push(flags);
        if version == 0x300 {
            table.extend_from_slice(&offset.to_le_bytes());
        } else {
            table.extend_from_slice(&(offset as u32).to_le_bytes());
        }
    }
    let mut out = header(version, data.len() as u64, 5);
    out.extend_from_slice(&data);
    if version == 0x300 {
        out.extend_from_slice(&0u32.to_le_bytes());
    }
    let packed = zlib(&table);
    out.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    out.extend_from_slice(&(table.len() as u32).to_le_bytes());
    out.extend_from_slice(&packed);
    out
}

#[test]
fn folders_enciphered_and_stored_entries_read_the_same_in_slices() {
    for version in [0x200, 0x300] {
        let bytes = hand_made(version);
        let label = format!("hand-made 0x{version:X}");
        assert_same_as_whole(&label, &bytes);
        let grf = SlicedGrf::open(Arc::new(MemorySlices::from(bytes))).unwrap();
        assert_eq!((grf.len(), grf.file_count()), (5, 4), "{label}");
        assert_eq!(grf.info()["encrypted_entries"].as_u64(), Some(2), "{label}");
        let err = grf.read_entry(1).unwrap_err();
        assert!(matches!(&err, Error::Unsupported(m) if m.contains("folder record")), "{label}: {err}");
        let noise: Vec<u8> = (0..30_000u32).map(|i| (i.wrapping_mul(2_246_822_519) >> 9) as u8).collect();
        assert_eq!(grf.read_entry(2).unwrap(), noise, "{label}");
        assert_eq!(grf.read_entry(3).unwrap(), noise[..9000], "{label}");
        assert_eq!(grf.read_entry(4).unwrap(), b"kept as it is", "{label}");
        assert_eq!(grf.find_ci("data/sub"), None, "{label}: folder records are not found");
        let paths: Vec<String> = grf.listing().into_iter().map(|e| e.path).collect();
        assert_eq!(paths, ["data/plain.txt", "data/mixed.bin", "data/header.bin", "data/stored.raw"]);
    }
}

#[test]
fn samples_and_corpus_read_the_same_in_slices() {
    for path in sample_and_corpus_grfs() {
        let bytes = std::fs::read(&path).unwrap();
        assert_same_as_whole(&path.display().to_string(), &bytes);
    }
}

#[test]
fn the_sample_lists_its_two_files() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok/example.grf");
    let grf = SlicedGrf::open(Arc::new(FileSlices::open(&path).unwrap())).unwrap();
    let listed: Vec<(String, u64)> = grf.listing().into_iter().map(|e| (e.path, e.size)).collect();
    assert_eq!(
        listed,
        [("data/readme.txt".to_string(), 40), ("data/texture/유저인터페이스/sample.bmp".to_string(), 70)]
    );
    assert_eq!(&grf.read_entry(1).unwrap()[..2], b"BM");
}

// =========================================================================================================
// Looking files up by name (a model's textures in its archive)

#[test]
fn files_are_looked_up_as_the_archive_lookup_of_models_does() {
    for (label, bytes) in fixtures() {
        let (sliced, counted) = open_counted(&bytes);
        let sliced = sliced.with_label("data.grf");
        counted.take();
        let whole = relic::ragnarok::rsm::textures::ArchiveFiles::whole(
            Arc::new(relic::source::Source::Owned(bytes.clone())),
            &grf::FORMAT,
            "data.grf",
        );
        for name in [
            "data/texture/wall.bmp",
            "DATA\\TEXTURE\\WALL.bmp",
            "/data/texture/Wall.BMP",
            "data\\텍스트.TXT",
            "data/readme.txt",
            "data/empty.txt",
            "data/texture/wall.bm",
            "texture/wall.bmp",
            "data/texture",
        ] {
            assert_eq!(sliced.read(name), whole.read(name), "{label}: {name}");
        }
        assert_eq!(sliced.read("data/Texture/WALL.bmp").as_deref(), Some(TEXTURE), "{label}");
        assert_eq!(sliced.read("data/texture/missing.bmp"), None, "{label}");
        assert_eq!(sliced.describe(), "data.grf");
        // Reading a file by name reads its stored bytes and nothing else (the index comes from the table).
        counted.take();
        sliced.read("data/texture/wall.bmp").unwrap();
        let i = sliced.find_ci("data/texture/wall.bmp").unwrap();
        let e = &sliced.entries()[i].record;
        let stored = if label.starts_with("0x1") { e.aligned_size.max(e.compressed_size) } else { e.compressed_size };
        assert_eq!(counted.take(), [(46 + e.offset, stored as usize)], "{label}");
    }
}

#[test]
fn a_model_in_a_sliced_grf_finds_its_texture_there() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ragnarok");
    let model = std::fs::read(samples.join("pyramid.rsm")).unwrap();
    let wall = std::fs::read(samples.join("wall.bmp")).unwrap();
    // The model names `stone.bmp`; the archive stores it in another case, as client archives often do.
    let inputs = vec![
        PackInput { name: b"data\\model\\pyramid.rsm".to_vec(), source: PackSource::Bytes(model.clone()) },
        PackInput { name: b"data\\texture\\Stone.BMP".to_vec(), source: PackSource::Bytes(wall.clone()) },
    ];
    let bytes = write_archive_bytes(inputs, 0x200).unwrap();
    let grf = Arc::new(SlicedGrf::open(Arc::new(MemorySlices::from(bytes))).unwrap());
    let rsm = relic::registry::by_id("ro-rsm").unwrap();
    let textures = |opts: &relic::registry::ConvertOptions| -> Vec<(u32, u32, Vec<u8>)> {
        let assets = rsm.convert(&relic::registry::ConvertInput::new(&model, opts)).unwrap();
        let scene = assets
            .iter()
            .find_map(|a| match &a.asset {
                relic::asset::Asset::Scene(scene) => Some(scene),
                _ => None,
            })
            .expect("a scene");
        scene
            .textures
            .iter()
            .map(|t| {
                let frame = &t.image.frames[0];
                let relic::asset::Pixels::Rgba8(px) = &frame.pixels else { panic!("RGBA") };
                (frame.width, frame.height, px.clone())
            })
            .collect()
    };
    let opts = relic::registry::ConvertOptions {
        nearby: relic::registry::Nearby::default().with_archive(grf),
        ..Default::default()
    };
    let want = relic::ragnarok::rsm::textures::decode_texture(&wall).unwrap();
    let relic::asset::Pixels::Rgba8(want_px) = &want.frames[0].pixels else { panic!("RGBA") };
    assert_eq!(textures(&opts), [(want.width(), want.height(), want_px.clone())]);
    assert!(opts.notes.lock().unwrap().is_empty(), "{:?}", opts.notes.lock().unwrap());
    // Without the archive the texture is missing, and said to be.
    let alone = relic::registry::ConvertOptions::default();
    let found = textures(&alone);
    assert!(found.iter().all(|(_, _, px)| px != want_px), "not found without the archive");
    assert!(alone.notes.lock().unwrap().iter().any(|n| n.contains("stone.bmp")), "{:?}", alone.notes.lock().unwrap());
}

// =========================================================================================================
// A sparse archive over 1 GiB, through `FileSlices`

fn zlib(data: &[u8]) -> Vec<u8> {
    relic::codec::zlib::compress(data, 6)
}

#[test]
fn a_sparse_archive_over_1_gib_opens_and_reads_with_little_read() {
    // Entry A at offset 0, entry B past a hole of 1.5 GiB, the table at the end (0x200).
    let a = b"the first entry, before the hole".to_vec();
    let b: Vec<u8> = (0..50_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let (pa, pb) = (zlib(&a), zlib(&b));
    let offset_b: u32 = 3 << 29;
    let mut table = Vec::new();
    for (name, packed, real, off) in
        [(&b"data\\a.txt"[..], &pa, a.len(), 0u32), (b"data\\far\\b.bin", &pb, b.len(), offset_b)]
    {
        table.extend_from_slice(name);
        table.push(0);
        for v in [packed.len(), packed.len().div_ceil(8) * 8, real] {
            table.extend_from_slice(&(v as u32).to_le_bytes());
        }
        table.push(1);
        table.extend_from_slice(&off.to_le_bytes());
    }
    let table_offset = offset_b + (pb.len().div_ceil(8) * 8) as u32;
    let mut header = b"Master of Magic\0".to_vec();
    header.extend(1u8..=14);
    for v in [table_offset, 0, 2 + 7, 0x200] {
        header.extend_from_slice(&v.to_le_bytes());
    }
    let packed_table = zlib(&table);
    let mut tail = (packed_table.len() as u32).to_le_bytes().to_vec();
    tail.extend_from_slice(&(table.len() as u32).to_le_bytes());
    tail.extend_from_slice(&packed_table);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.grf");
    let mut f = std::fs::File::create(&path).unwrap();
    let size = 46 + u64::from(table_offset) + tail.len() as u64;
    f.set_len(size).unwrap();
    f.write_all(&header).unwrap();
    f.write_all(&pa).unwrap();
    f.seek(SeekFrom::Start(46 + u64::from(offset_b))).unwrap();
    f.write_all(&pb).unwrap();
    f.seek(SeekFrom::Start(46 + u64::from(table_offset))).unwrap();
    f.write_all(&tail).unwrap();
    drop(f);
    assert!(size > 1 << 30);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let on_disk = std::fs::metadata(&path).unwrap().blocks() * 512;
        assert!(on_disk < 4 << 20, "the sparse file takes {on_disk} bytes of disk");
    }

    let counted = Counted::new(Arc::new(FileSlices::open(&path).unwrap()));
    let grf = SlicedGrf::open(Arc::clone(&counted) as Arc<dyn RandomRead>).unwrap();
    assert_eq!(total(&counted.take()), 46 + tail.len() as u64);
    let listed: Vec<(String, u64)> = grf.listing().into_iter().map(|e| (e.path, e.size)).collect();
    assert_eq!(listed, [("data/a.txt".to_string(), a.len() as u64), ("data/far/b.bin".to_string(), 50_000)]);
    assert_eq!(grf.info()["file_size"].as_u64(), Some(size));
    assert_eq!(grf.read_entry(1).unwrap(), b);
    assert_eq!(grf.read("DATA/A.TXT"), Some(a));
    let reads = counted.take();
    assert_eq!(reads, [(46 + u64::from(offset_b), pb.len()), (46, pa.len())]);
    assert!(total(&reads) < 1 << 20);
}

// =========================================================================================================
// Hostile files

/// The sliced open and a read of every entry, held to the whole-file parse: both refuse a file or neither
/// does, with the same error; when both read it, the same listing, summary and entries (or entry errors).
fn sliced_as_whole(bytes: &[u8]) -> relic::Result<usize> {
    let whole = parse(bytes);
    let sliced = SlicedGrf::open(Arc::new(MemorySlices::from(bytes.to_vec())));
    let (whole, sliced) = match (whole, sliced) {
        (Err(w), Err(s)) => {
            assert_eq!(s.to_string(), w.to_string(), "the same error");
            return Err(s);
        }
        (Ok(w), Ok(s)) => (w, s),
        (w, s) => panic!("whole: {:?}, sliced: {:?}", w.map(|g| g.len()), s.map(|g| g.len())),
    };
    assert_eq!(sliced.listing(), whole_listing(&whole));
    assert_eq!(sliced.info(), convert::info(&whole));
    for i in 0..whole.len() {
        match (sliced.read_entry(i), whole.read_entry(i)) {
            (Ok(s), Ok(w)) => assert!(s[..] == w[..], "entry {i}"),
            (Err(s), Err(w)) => assert_eq!(s.to_string(), w.to_string(), "entry {i}"),
            (s, w) => panic!("entry {i}: sliced {:?}, whole {:?}", s.map(|b| b.len()), w.map(|b| b.len())),
        }
    }
    Ok(whole.len())
}

/// Small archives of every version (every byte truncated and flipped).
fn small_fixtures() -> Vec<(String, Vec<u8>)> {
    grf::types::WRITE_VERSIONS
        .iter()
        .map(|&v| {
            let few: Vec<PackInput> = inputs()
                .into_iter()
                .filter(|i| !i.name.ends_with(b"noise.bin") && !i.name.ends_with(b".gnd"))
                .collect();
            (format!("0x{v:X}"), write_archive_bytes(few, v).unwrap())
        })
        .collect()
}

#[test]
fn truncated_and_flipped_files_fail_in_slices_exactly_as_whole() {
    for (label, bytes) in small_fixtures() {
        // The table ends every fixture, so every truncation loses part of it.
        let report = relic::testing::check_robustness(&bytes, true, sliced_as_whole);
        assert!(report.flips_rejected > 0, "{label}");
        assert!(report.flips_rejected < report.flips, "{label}: some flips still read");
    }
    for version in [0x200, 0x300] {
        let report = relic::testing::check_robustness_sampled(&hand_made(version), true, 300, sliced_as_whole);
        assert!(report.flips_rejected > 0, "hand-made 0x{version:X}");
    }
    for (label, bytes) in fixtures() {
        let report = relic::testing::check_robustness_sampled(&bytes, true, 300, sliced_as_whole);
        assert!(report.flips_rejected > 0, "{label}");
    }
    for path in sample_and_corpus_grfs() {
        let bytes = std::fs::read(&path).unwrap();
        // Every mutant inflates every entry twice: fewer positions for the corpus's larger files.
        let positions = if bytes.len() > 64 << 10 { 60 } else { 400 };
        let report = relic::testing::check_robustness_sampled(&bytes, true, positions, sliced_as_whole);
        assert!(report.flips_rejected > 0, "{}", path.display());
    }
}

// =========================================================================================================
// Sizes past --max-entry-size, refused unread

/// A file of `len` bytes of which only `parts` are written (zeros elsewhere), that refuses to serve a large
/// read: the tests below prove their ranges are refused before they are read.
#[derive(Debug)]
struct Claimed {
    len: u64,
    parts: Vec<(u64, Vec<u8>)>,
}

impl RandomRead for Claimed {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        assert!(len <= 1 << 20, "asked to read {len} bytes at {offset}");
        let mut out = vec![0u8; len];
        for (at, bytes) in &self.parts {
            for (i, b) in bytes.iter().enumerate() {
                let pos = at + i as u64;
                if pos >= offset && pos < offset + len as u64 {
                    out[(pos - offset) as usize] = *b;
                }
            }
        }
        Ok(out)
    }
}

/// A header of `version` (0x300 in its wide form) whose table lies at `table_offset`, listing `count`.
fn header(version: u32, table_offset: u64, count: u32) -> Vec<u8> {
    let mut h = b"Master of Magic\0".to_vec();
    h.extend(1u8..=14);
    if version == 0x300 {
        h.extend_from_slice(&table_offset.to_le_bytes());
        h.extend_from_slice(&count.to_le_bytes());
    } else {
        for v in [table_offset as u32, 0, count + 7] {
            h.extend_from_slice(&v.to_le_bytes());
        }
    }
    h.extend_from_slice(&version.to_le_bytes());
    h
}

fn open_claimed(len: u64, parts: Vec<(u64, Vec<u8>)>) -> (relic::Result<SlicedGrf>, Vec<(u64, usize)>) {
    let counted = Counted::new(Arc::new(Claimed { len, parts }));
    let opened = SlicedGrf::open(Arc::clone(&counted) as Arc<dyn RandomRead>);
    (opened, counted.take())
}

#[test]
fn tables_over_the_entry_limit_are_refused_unread() {
    let limit = relic::limits::current().max_entry_size;
    let len = limit + (64 << 20);
    // 1.x: the table runs from its offset (here 0, byte 46) to the end of the file.
    let (opened, reads) = open_claimed(len, vec![(0, header(0x103, 0, 1))]);
    let err = opened.unwrap_err();
    assert!(matches!(&err, Error::Limit { at, .. } if at.field == "table_offset" && at.offset == 46), "{err}");
    assert!(err.to_string().contains(&format!("a {}-byte file table", len - 46)), "{err}");
    assert_eq!(reads, [(0, 46)]);
    // 0x200 and 0x300: the table's own header declares more compressed bytes than the limit.
    for (version, own) in [(0x200u32, 8u64), (0x300, 12)] {
        let packed = (limit + 1) as u32;
        let mut table = if version == 0x300 { 0u32.to_le_bytes().to_vec() } else { Vec::new() };
        table.extend_from_slice(&packed.to_le_bytes());
        table.extend_from_slice(&100u32.to_le_bytes());
        let (opened, reads) = open_claimed(len, vec![(0, header(version, 0, 1)), (46, table)]);
        let err = opened.unwrap_err();
        let at = 46 + own;
        assert!(
            matches!(&err, Error::Limit { at: l, .. } if l.field == "table.packed_size" && l.offset == at),
            "0x{version:X}: {err}"
        );
        assert_eq!(reads, [(0, 46), (46, own as usize)], "0x{version:X}");
    }
}

#[test]
fn entries_over_the_entry_limit_are_refused_unread() {
    let limit = relic::limits::current().max_entry_size;
    // A 0x300 archive whose one entry claims `limit + 8` stored bytes at offset 0, the table after them.
    let stored = (limit + 8) as u32;
    let mut record = b"data\\huge.bin\0".to_vec();
    for v in [stored, stored, 16] {
        record.extend_from_slice(&v.to_le_bytes());
    }
    record.push(1);
    record.extend_from_slice(&0u64.to_le_bytes());
    let packed = zlib(&record);
    let mut table = 0u32.to_le_bytes().to_vec();
    table.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    table.extend_from_slice(&(record.len() as u32).to_le_bytes());
    table.extend_from_slice(&packed);
    let table_offset = u64::from(stored);
    let len = 46 + table_offset + table.len() as u64;
    let counted = Counted::new(Arc::new(Claimed {
        len,
        parts: vec![(0, header(0x300, table_offset, 1)), (46 + table_offset, table.clone())],
    }));
    let grf = SlicedGrf::open(Arc::clone(&counted) as Arc<dyn RandomRead>).unwrap();
    assert_eq!(total(&counted.take()), 46 + table.len() as u64);
    assert_eq!(grf.listing()[0].path, "data/huge.bin");
    let err = grf.read_entry(0).unwrap_err();
    assert!(
        matches!(&err, Error::Limit { at, .. } if at.field == "table.entries[0].compressed_size" && at.offset == 46),
        "{err}"
    );
    assert!(counted.take().is_empty(), "nothing read");
    assert_eq!(grf.read("data/huge.bin"), None);
}

#[test]
fn a_reader_that_fails_gives_a_located_io_error() {
    /// A file whose reads past its header fail.
    #[derive(Debug)]
    struct Failing(Vec<u8>);
    impl RandomRead for Failing {
        fn len(&self) -> u64 {
            self.0.len() as u64
        }
        fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
            if offset >= 46 {
                return Err(std::io::Error::other("the disk went away"));
            }
            MemorySlices::from(self.0.clone()).read_at(offset, len)
        }
    }
    let bytes = written(0x200);
    let err = SlicedGrf::open(Arc::new(Failing(bytes))).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");
    let text = err.to_string();
    assert!(text.starts_with("ro-grf: reading table, 0x8 bytes at offset 0x"), "{text}");
    assert!(text.ends_with("the disk went away"), "{text}");
}

#[test]
fn memory_and_file_slices_refuse_ranges_past_the_end() {
    let memory = MemorySlices::from(b"0123456789".to_vec());
    assert_eq!(memory.read_at(2, 3).unwrap(), b"234");
    assert_eq!(memory.read_at(10, 0).unwrap(), b"");
    for (offset, len) in [(8, 3), (11, 0), (u64::MAX, 2)] {
        let err = memory.read_at(offset, len).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof, "{offset}+{len}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ten.bin");
    std::fs::write(&path, b"0123456789").unwrap();
    let file = FileSlices::open(&path).unwrap();
    assert_eq!((file.len(), file.read_at(7, 3).unwrap()), (10, b"789".to_vec()));
    assert_eq!(file.read_at(8, 3).unwrap_err().kind(), std::io::ErrorKind::UnexpectedEof);
    assert!(matches!(FileSlices::open(dir.path()), Err(Error::Refused(_))));
}

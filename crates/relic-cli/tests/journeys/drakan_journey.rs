//! Drakan SRSC as a user goes through it with the `relic` binary: convert a file, edit what it wrote (a
//! texture's pixels, a sound's samples, a heightmap, records.json, strings.json), pack the folder's document,
//! convert the result again and find the edit there, every other record byte for byte as it was. Outputs are
//! found through `relic convert --json`'s manifest, never by the folder's name. Samples: `samples/drakan/`
//! (built by `cargo run -p relic --example make_samples`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::relic_process as relic;

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("drakan").join(name)
}

/// What `relic convert --json` did: exit code, stderr, written outputs and failures.
struct Converted {
    code: i32,
    stderr: String,
    outputs: Vec<PathBuf>,
    failures: Value,
}

impl Converted {
    /// The written output whose path ends with `tail` (whole components: `texture_3.png`, `Ambience/2_hum.wav`).
    fn output(&self, tail: &str) -> PathBuf {
        self.outputs
            .iter()
            .find(|p| p.ends_with(tail))
            .unwrap_or_else(|| panic!("no output {tail} in {:?}", self.outputs))
            .clone()
    }

    /// The lossless document: the JSON written beside the others that is not strings.json or records.json.
    fn document(&self) -> PathBuf {
        let docs: Vec<&PathBuf> = self
            .outputs
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| !p.ends_with("strings.json") && !p.ends_with("records.json"))
            .collect();
        assert_eq!(docs.len(), 1, "one document in {:?}", self.outputs);
        docs[0].clone()
    }
}

fn convert(input: &Path, out: &Path) -> Converted {
    let run = relic().args(["convert", "--json", "-o"]).arg(out).arg(input).output().unwrap();
    let manifest: Value = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&run.stdout)));
    let outputs = manifest["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let p = PathBuf::from(o["output"].as_str().unwrap());
            if p.is_absolute() {
                p
            } else {
                std::env::current_dir().unwrap().join(p)
            }
        })
        .collect();
    Converted {
        code: run.status.code().unwrap(),
        stderr: String::from_utf8_lossy(&run.stderr).into_owned(),
        outputs,
        failures: manifest["failures"].clone(),
    }
}

/// `relic pack drakan-srsc <input> -o <output>`: exit code and stderr.
fn pack(input: &Path, output: &Path) -> (i32, String) {
    let run = relic().args(["pack", "drakan-srsc", "--force", "-o"]).arg(output).arg(input).output().unwrap();
    (run.status.code().unwrap(), String::from_utf8_lossy(&run.stderr).into_owned())
}

fn pack_ok(input: &Path, output: &Path) -> String {
    let (code, stderr) = pack(input, output);
    assert_eq!(code, 0, "pack {}: {stderr}", input.display());
    stderr
}

/// An RGBA PNG: (width, height, pixels).
fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, buf)
}

fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.write_header().unwrap().write_image_data(rgba).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

fn set_pixel(rgba: &mut [u8], width: u32, x: u32, y: u32, px: [u8; 4]) {
    let at = ((y * width + x) * 4) as usize;
    rgba[at..at + 4].copy_from_slice(&px);
}

fn pixel(rgba: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
    let at = ((y * width + x) * 4) as usize;
    rgba[at..at + 4].try_into().unwrap()
}

/// Every record of an SRSC file: (type, id, group, body).
fn records(bytes: &[u8]) -> Vec<(u16, u16, u16, Vec<u8>)> {
    let file = relic::drakan::srsc::parse(bytes).unwrap();
    (0..file.entries.len())
        .map(|i| (file.entries[i].record_type, file.entries[i].id, file.entries[i].group, file.body(i).to_vec()))
        .collect()
}

/// The records of `a` and `b` that differ, by (type, id); the two files must list the same records.
fn changed(a: &[u8], b: &[u8]) -> Vec<(u16, u16)> {
    let (a, b) = (records(a), records(b));
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(&b)
        .inspect(|(x, y)| assert_eq!((x.0, x.1, x.2), (y.0, y.1, y.2)))
        .filter(|(x, y)| x.3 != y.3)
        .map(|(x, _)| (x.0, x.1))
        .collect()
}

/// The `data` chunk of a WAV and where it starts.
fn wav_data(bytes: &[u8]) -> (usize, Vec<u8>) {
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if &bytes[at..at + 4] == b"data" {
            return (at + 8, bytes[at + 8..at + 8 + size].to_vec());
        }
        at += 8 + size + size % 2;
    }
    panic!("no data chunk")
}

/// Converts `name` (a sample) into `work/out`; the conversion, with no failures.
fn convert_sample(name: &str, work: &Path) -> Converted {
    let c = convert(&sample(name), &work.join("out"));
    assert_eq!(c.code, 0, "{}", c.stderr);
    assert_eq!(c.failures, Value::Array(vec![]));
    c
}

/// Packs the document of `c` into `work/<name>` and converts that again into `work/again`.
fn pack_and_convert_again(c: &Converted, work: &Path, name: &str) -> (Vec<u8>, Converted, String) {
    let packed = work.join(name);
    let notes = pack_ok(&c.document(), &packed);
    let again = convert(&packed, &work.join("again"));
    assert_eq!(again.code, 0, "{}", again.stderr);
    (std::fs::read(&packed).unwrap(), again, notes)
}

#[test]
fn unedited_conversions_pack_back_byte_for_byte() {
    for name in ["Sample.txd", "Common.txd", "Sample.sdb", "Dragon.rrc", "Sample.mod", "Sample.lvl", "Sample.adb"] {
        let work = tempfile::tempdir().unwrap();
        let c = convert_sample(name, work.path());
        let back = work.path().join(name);
        let notes = pack_ok(&c.document(), &back);
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(sample(name)).unwrap(), "{name}: {notes}");
        assert!(!notes.contains("warning") && !notes.contains("re-encoded"), "{name}: {notes}");
    }
}

#[test]
fn views_are_named_as_views() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.mod", work.path());
    for view in ["models/Crate.view.glb", "models/Wisp.view.glb", "refs/Sample/Sample.txd/texture_2.view.png"] {
        assert!(c.output(view).is_file(), "{view}");
    }
    let c = convert(&sample("Sample.lvl"), &work.path().join("lvl"));
    assert!(c.output("terrain.view.glb").is_file());
    assert!(c.output("heightmaps/1_Meadow.png").is_file());
    let c = convert(&sample("Sample.txd"), &work.path().join("txd"));
    let names: Vec<String> = c.outputs.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        [
            "Sample.txd.json",
            "texture_2.png",
            "texture_3.png",
            "texture_4.view.png",
            "texture_4.frame0.png",
            "texture_4.frame1.png",
            "records.json"
        ]
    );
}

#[test]
fn an_edited_texture_pixel_packs_back_in_its_stored_format() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.txd", work.path());
    // 16 bpp 5:6:5, stored: pure red is exact in 5:6:5.
    let t3 = c.output("texture_3.png");
    let (w, h, mut px3) = read_png(&t3);
    set_pixel(&mut px3, w, 1, 2, [255, 0, 0, 255]);
    write_png(&t3, w, h, &px3);
    // 8 bpp through the palette (zlib): one pixel takes a palette colour, one a colour the palette lacks.
    let t2 = c.output("texture_2.png");
    let (w2, h2, mut px2) = read_png(&t2);
    set_pixel(&mut px2, w2, 0, 0, [40, 40, 200, 255]);
    set_pixel(&mut px2, w2, 3, 3, [250, 30, 30, 255]);
    write_png(&t2, w2, h2, &px2);
    let (packed, again, notes) = pack_and_convert_again(&c, work.path(), "Sample.txd");
    assert!(notes.contains("texture_2.png → texture 2") && notes.contains("texture_3.png → texture 3"), "{notes}");
    assert!(
        notes.contains("texture_2.png: 1 pixel(s) cannot be stored exactly in 8 bpp (palette)")
            && notes.contains("(3, 3), #fa1e1eff is stored as #c82828ff"),
        "{notes}"
    );
    assert_eq!(changed(&std::fs::read(sample("Sample.txd")).unwrap(), &packed), [(0x0040, 2), (0x0040, 3)]);
    let (_, _, back3) = read_png(&again.output("texture_3.png"));
    assert_eq!(pixel(&back3, w, 1, 2), [255, 0, 0, 255]);
    assert_eq!(back3, px3, "every other pixel as it was");
    let (_, _, back2) = read_png(&again.output("texture_2.png"));
    assert_eq!(pixel(&back2, w2, 0, 0), [40, 40, 200, 255]);
    assert_eq!(pixel(&back2, w2, 3, 3), [200, 40, 40, 255], "the palette's nearest colour");
    set_pixel(&mut px2, w2, 3, 3, [200, 40, 40, 255]);
    assert_eq!(back2, px2);
    // The 16-bit texture is stored uncompressed: same size, only its changed pixel's two bytes differ.
    let original = records(&std::fs::read(sample("Sample.txd")).unwrap());
    let now = records(&packed);
    let diff: Vec<usize> = (0..original[2].3.len()).filter(|&i| original[2].3[i] != now[2].3[i]).collect();
    // Row 2 from the top is stored row 1 of 4 (bottom-up); pixel 1 of a pitch-8 row: bytes 54 + 8 + 2.
    assert_eq!(diff, [64, 65]);
    assert_eq!(&now[2].3[64..66], &0xF800u16.to_le_bytes());
    // A packed file packs back unchanged when converted again and left alone.
    let twice = work.path().join("twice.txd");
    pack_ok(&again.document(), &twice);
    assert_eq!(std::fs::read(&twice).unwrap(), packed);
}

#[test]
fn a_24_bit_texture_takes_any_colour() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Common.txd", work.path());
    let t = c.output("texture_1.png");
    let (w, h, mut px) = read_png(&t);
    set_pixel(&mut px, w, 1, 0, [1, 2, 3, 255]);
    write_png(&t, w, h, &px);
    let (packed, again, notes) = pack_and_convert_again(&c, work.path(), "Common.txd");
    assert!(!notes.contains("cannot be stored exactly"), "{notes}");
    assert_eq!(changed(&std::fs::read(sample("Common.txd")).unwrap(), &packed), [(0x0040, 1)]);
    assert_eq!(read_png(&again.output("texture_1.png")).2, px);
}

#[test]
fn a_png_of_another_size_resizes_the_texture() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.txd", work.path());
    let colours = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]];
    let px: Vec<u8> = (0..64).flat_map(|i| colours[(i * 7 + i / 8) % 4]).collect();
    write_png(&c.output("texture_3.png"), 8, 8, &px);
    let (packed, again, notes) = pack_and_convert_again(&c, work.path(), "Sample.txd");
    assert!(notes.contains("now 8 × 8 (was 4 × 4)"), "{notes}");
    assert!(notes.contains("a width of 8: Drakan's editor makes only 32, 64, 128 or 256"), "{notes}");
    let body = &records(&packed)[2].3;
    let u32_at = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().unwrap());
    assert_eq!((u32_at(0), u32_at(4), u32_at(8)), (8, 8, 16), "width, height, pitch");
    assert_eq!(body.len(), 54 + 16 * 8);
    assert_eq!(read_png(&again.output("texture_3.png")), (8, 8, px.clone()));
    assert_eq!(changed(&std::fs::read(sample("Sample.txd")).unwrap(), &packed), [(0x0040, 3)]);
    // One frame of an animation alone cannot change size.
    let c = convert(&sample("Sample.txd"), &work.path().join("second"));
    write_png(&c.output("texture_4.frame1.png"), 8, 8, &px);
    let (code, stderr) = pack(&c.document(), &work.path().join("refused.txd"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("animation 4: its frames must share one size")
            && stderr.contains("texture_4.frame1.png is 8 × 8"),
        "{stderr}"
    );
    assert!(!work.path().join("refused.txd").exists());
}

#[test]
fn animation_frames_are_sources_and_the_apng_a_view() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.txd", work.path());
    // The animated PNG edited alone: a warning, and the file packs as it was.
    let view = c.output("texture_4.view.png");
    write_png(&view, 4, 4, &[9; 64]);
    let back = work.path().join("viewed.txd");
    let notes = pack_ok(&c.document(), &back);
    assert!(
        notes.contains("warning: ") && notes.contains("texture_4.view.png is a view and was not packed back"),
        "{notes}"
    );
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(sample("Sample.txd")).unwrap());
    // A frame edited: its record changes (8 bpp, the palette's blue), the first frame's does not.
    let frame = c.output("texture_4.frame1.png");
    let (w, h, mut px) = read_png(&frame);
    set_pixel(&mut px, w, 2, 1, [40, 40, 200, 255]);
    write_png(&frame, w, h, &px);
    std::fs::remove_file(&view).unwrap();
    let (packed, again, _) = pack_and_convert_again(&c, work.path(), "Sample.txd");
    assert_eq!(changed(&std::fs::read(sample("Sample.txd")).unwrap(), &packed), [(0x0040, 5)]);
    assert_eq!(read_png(&again.output("texture_4.frame1.png")).2, px);
    assert_eq!(pixel(&read_png(&again.output("texture_4.frame1.png")).2, w, 2, 1), [40, 40, 200, 255]);
}

#[test]
fn an_edited_wav_packs_back_in_the_stored_format() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.sdb", work.path());
    // 8-bit mono, stored raw.
    let hum = c.output("Ambience/2_hum.wav");
    let mut bytes = std::fs::read(&hum).unwrap();
    let (at, _) = wav_data(&bytes);
    bytes[at..at + 4].copy_from_slice(&[0, 255, 7, 128]);
    std::fs::write(&hum, &bytes).unwrap();
    // 16-bit stereo, zlib.
    let wind = c.output("Ambience/3_wind.wav");
    let mut wind_bytes = std::fs::read(&wind).unwrap();
    let (at, _) = wav_data(&wind_bytes);
    wind_bytes[at..at + 4].copy_from_slice(&[0xD2, 0x04, 0x2E, 0xFB]); // 1234, -1234
    std::fs::write(&wind, &wind_bytes).unwrap();
    let (packed, again, notes) = pack_and_convert_again(&c, work.path(), "Sample.sdb");
    assert!(notes.contains("2_hum.wav → sound 2 (8-bit, 1 channel(s))"), "{notes}");
    assert!(notes.contains("3_wind.wav → sound 3 (16-bit, 2 channel(s))"), "{notes}");
    assert_eq!(changed(&std::fs::read(sample("Sample.sdb")).unwrap(), &packed), [(0x0302, 2), (0x0302, 3)]);
    assert_eq!(wav_data(&std::fs::read(again.output("Ambience/2_hum.wav")).unwrap()).1, wav_data(&bytes).1);
    assert_eq!(wav_data(&std::fs::read(again.output("Ambience/3_wind.wav")).unwrap()).1, wav_data(&wind_bytes).1);
    // The stereo sound is still compressed, at its level.
    let sound = relic::drakan::records::sound::parse(&records(&packed)[2].3, 0).unwrap();
    assert_eq!((sound.compression_level, sound.channels, sound.bits, sound.frequency), (9, 2, 16, 22050));
    assert_eq!(sound.decompressed_size, 256);
}

#[test]
fn records_json_edits_pack_back_and_sample_fields_are_refused() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.sdb", work.path());
    let path = c.output("records.json");
    let mut listing: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(listing[1]["decoded"]["sound"]["volume"], -200);
    listing[1]["decoded"]["sound"]["volume"] = Value::from(-1000);
    std::fs::write(&path, serde_json::to_vec_pretty(&listing).unwrap()).unwrap();
    let (packed, _, notes) = pack_and_convert_again(&c, work.path(), "Sample.sdb");
    assert!(notes.contains("records.json: 1 record(s) packed back: 0x0302 id 2"), "{notes}");
    assert_eq!(changed(&std::fs::read(sample("Sample.sdb")).unwrap(), &packed), [(0x0302, 2)]);
    let sound = relic::drakan::records::sound::parse(&records(&packed)[1].3, 0).unwrap();
    assert_eq!((sound.volume, sound.data.0.len()), (-1000, 64));
    // The samples' layout comes from the WAV: an edit there is refused, naming the field.
    listing[1]["decoded"]["sound"]["bits"] = Value::from(16);
    std::fs::write(&path, serde_json::to_vec_pretty(&listing).unwrap()).unwrap();
    let (code, stderr) = pack(&c.document(), &work.path().join("refused.sdb"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("record 0x0302 (sound) id 2 `hum`") && stderr.contains("`bits` describes the samples"),
        "{stderr}"
    );
}

#[test]
fn strings_json_finds_its_document_in_a_renamed_folder() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Dragon.rrc", work.path());
    let folder = c.document().parent().unwrap().to_path_buf();
    let renamed = work.path().join("translation");
    std::fs::rename(&folder, &renamed).unwrap();
    let doc_name = c.document().file_name().unwrap().to_owned();
    std::fs::rename(renamed.join(&doc_name), renamed.join("whatever.json")).unwrap();
    let mut strings: Value = serde_json::from_slice(&std::fs::read(renamed.join("strings.json")).unwrap()).unwrap();
    assert_eq!(strings["10"], "New Game");
    strings["10"] = Value::from("Neues Spiel");
    std::fs::write(renamed.join("strings.json"), serde_json::to_vec(&strings).unwrap()).unwrap();
    let packed = work.path().join("Dragon.rrc");
    let notes = pack_ok(&renamed.join("strings.json"), &packed);
    assert!(notes.contains("whatever.json") && notes.contains("(1 changed)"), "{notes}");
    let again = convert(&packed, &work.path().join("again"));
    let back: Value = serde_json::from_slice(&std::fs::read(again.output("strings.json")).unwrap()).unwrap();
    assert_eq!(back, strings);
    assert_eq!(back["10"], "Neues Spiel");
    assert_eq!(
        changed(&std::fs::read(sample("Dragon.rrc")).unwrap(), &std::fs::read(&packed).unwrap()),
        [(0x0400, 10)]
    );
    // Two documents: pack says which and refuses.
    std::fs::copy(renamed.join("whatever.json"), renamed.join("copy.json")).unwrap();
    let (code, stderr) = pack(&renamed.join("strings.json"), &work.path().join("two.rrc"));
    assert_eq!(code, 1);
    assert!(stderr.contains("holds 2 Drakan documents") && stderr.contains("copy.json"), "{stderr}");
    // The folder itself is no extraction: pack points at its document.
    std::fs::remove_file(renamed.join("copy.json")).unwrap();
    let (code, stderr) = pack(&renamed, &work.path().join("folder.rrc"));
    assert_eq!(code, 1);
    assert!(
        stderr.contains("is a folder `relic convert` wrote: pack its document")
            && stderr.contains(&format!("relic pack drakan-srsc {}", renamed.join("whatever.json").display())),
        "{stderr}"
    );
    // None.
    std::fs::remove_file(renamed.join("whatever.json")).unwrap();
    let (code, stderr) = pack(&renamed.join("strings.json"), &work.path().join("none.rrc"));
    assert_eq!(code, 1);
    assert!(stderr.contains("holds none"), "{stderr}");
}

/// A `.txd` with a good 24-bit texture (id 2), a damaged one (id 7: its pixel data cut short) and one in a
/// 16-bit alpha format nobody knows (id 8: flag 0x02 with 3 alpha bits).
fn damaged_txd() -> Vec<u8> {
    use relic::drakan::records::common::Flags;
    use relic::drakan::records::texture::{self, Texture, NO_COLOUR_KEY};
    use relic::drakan::srsc::{write_packed, NewRecord};
    let tex = |bpp: u16, alpha_bits: u32, flags: u32, pixels: Vec<u8>| Texture {
        width: 2,
        height: 1,
        pitch: 2 * u32::from(bpp) / 8,
        bits_per_pixel: bpp,
        alpha_bits,
        colour_key: NO_COLOUR_KEY,
        flags: Flags::new(flags),
        compression_level: 0,
        compressed_size: pixels.len() as u32,
        data: relic::bytes::Base64(pixels),
        ..Texture::default()
    };
    let good = texture::write(&tex(24, 0, 0, vec![10, 20, 30, 40, 50, 60]));
    let mut cut = texture::write(&tex(24, 0, 0, vec![1, 2, 3, 4, 5, 6]));
    cut.truncate(cut.len() - 2);
    let odd = texture::write(&tex(16, 3, 0x02, vec![1, 2, 3, 4]));
    let record = |id, body| NewRecord { record_type: 0x0040, id, group: 0, body };
    write_packed(0x0100, &[record(2, good), record(7, cut), record(8, odd)]).unwrap()
}

#[test]
fn a_damaged_texture_record_is_a_failure_and_the_rest_converts() {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("Broken.txd");
    std::fs::write(&input, damaged_txd()).unwrap();
    let c = convert(&input, &work.path().join("out"));
    assert_eq!(c.code, 1, "{}", c.stderr);
    let lines: Vec<&str> = c.stderr.lines().filter(|l| l.contains("Broken.txd")).collect();
    assert!(
        lines.iter().any(|l| l.contains("record 0x0040 (texture) id 7 at offset 0x") && l.contains("texture.data")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("texture 8 (record 0x0040): no PNG") && l.contains("3 alpha bits")),
        "{lines:?}"
    );
    assert_eq!(c.failures.as_array().map(Vec::len), Some(2), "{}", c.failures);
    let listing: Value = serde_json::from_slice(&std::fs::read(c.output("records.json")).unwrap()).unwrap();
    assert!(listing[1]["error"].as_str().unwrap().contains("texture.data"), "{}", listing[1]);
    assert_eq!(read_png(&c.output("texture_2.png")), (2, 1, vec![10, 20, 30, 255, 40, 50, 60, 255]));
    // The damaged records pack back as they are.
    let back = work.path().join("back.txd");
    pack_ok(&c.document(), &back);
    assert_eq!(std::fs::read(&back).unwrap(), damaged_txd());
    // A PNG for the texture relic cannot encode is refused, with the reason.
    write_png(&c.document().with_file_name("texture_8.png"), 2, 1, &[0; 8]);
    let (code, stderr) = pack(&c.document(), &work.path().join("refused.txd"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("texture_8.png: texture 8 cannot be packed") && stderr.contains("3 alpha bits"),
        "{stderr}"
    );
}

/// A 16-bit greyscale PNG's size and values.
fn read_gray16(path: &Path) -> (u32, u32, Vec<u16>) {
    let mut reader = png::Decoder::new(std::fs::File::open(path).unwrap()).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = buf[..info.buffer_size()].chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    (info.width, info.height, px)
}

fn write_gray16(path: &Path, width: u32, height: u32, values: &[u16]) {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, width, height);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        enc.write_header().unwrap().write_image_data(&data).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn an_edited_heightmap_packs_into_its_layer() {
    let work = tempfile::tempdir().unwrap();
    let c = convert_sample("Sample.lvl", work.path());
    let map = c.output("heightmaps/1_Meadow.png");
    let (w, h, mut heights) = read_gray16(&map);
    heights[1] = 0x9234;
    write_gray16(&map, w, h, &heights);
    let (packed, again, notes) = pack_and_convert_again(&c, work.path(), "Sample.lvl");
    assert!(notes.contains("1_Meadow.png: 1 height(s) packed into layer 1"), "{notes}");
    assert_eq!(changed(&std::fs::read(sample("Sample.lvl")).unwrap(), &packed), [(0x0001, 0)]);
    assert_eq!(read_gray16(&again.output("heightmaps/1_Meadow.png")), (w, h, heights.clone()));
    assert_eq!(
        read_gray16(&again.output("heightmaps/2_Ledge.png")),
        read_gray16(&c.output("heightmaps/2_Ledge.png")),
        "the other layer as it was"
    );
    // An 8-bit heightmap would lose heights: refused.
    write_png(&map, w, h, &vec![0; (w * h * 4) as usize]);
    let (code, stderr) = pack(&c.document(), &work.path().join("refused.lvl"));
    assert_eq!(code, 1);
    assert!(stderr.contains("1_Meadow.png") && stderr.contains("16-bit greyscale PNG"), "{stderr}");
}

/// A 24- or 32-bit texture body, stored, 2 × 1.
fn plain_texture(bpp: u16, pixels: Vec<u8>) -> Vec<u8> {
    use relic::drakan::records::texture::{self, Texture, NO_COLOUR_KEY};
    texture::write(&Texture {
        width: 2,
        height: 1,
        pitch: 2 * u32::from(bpp) / 8,
        bits_per_pixel: bpp,
        colour_key: NO_COLOUR_KEY,
        compressed_size: pixels.len() as u32,
        data: relic::bytes::Base64(pixels),
        ..Texture::default()
    })
}

#[test]
fn thirty_two_bit_textures_pack_back_in_the_order_they_were_drawn() {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("Deep.txd");
    let body = plain_texture(32, vec![1, 2, 3, 0x77, 4, 5, 6, 0x88]);
    let bytes = relic::drakan::srsc::write_packed(
        0x0100,
        &[relic::drakan::srsc::NewRecord { record_type: 0x0040, id: 1, group: 0, body }],
    )
    .unwrap();
    std::fs::write(&input, &bytes).unwrap();
    let run = |out: &str, file: &Path| {
        let out = work.path().join(out);
        let run = relic()
            .args(["convert", "--json", "--option", "drakan-texture.order=bgra", "-o"])
            .arg(&out)
            .arg(file)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
        let manifest: Value = serde_json::from_slice(&run.stdout).unwrap();
        let outputs: Vec<PathBuf> = manifest["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| PathBuf::from(o["output"].as_str().unwrap()))
            .collect();
        Converted { code: 0, stderr: String::new(), outputs, failures: manifest["failures"].clone() }
    };
    let c = run("out", &input);
    let doc: Value = serde_json::from_slice(&std::fs::read(c.document()).unwrap()).unwrap();
    assert_eq!(doc["texture_order"], "bgra");
    let png = c.output("texture_1.png");
    let (w, h, mut px) = read_png(&png);
    assert_eq!(px, [3, 2, 1, 255, 6, 5, 4, 255], "drawn as BGRA");
    // Unedited: the same bytes.
    let back = work.path().join("back.txd");
    pack_ok(&c.document(), &back);
    assert_eq!(std::fs::read(&back).unwrap(), bytes);
    // Edited: stored in BGRA again, the unused fourth byte kept.
    set_pixel(&mut px, w, 1, 0, [10, 20, 30, 255]);
    write_png(&png, w, h, &px);
    let edited = work.path().join("Deep2.txd");
    pack_ok(&c.document(), &edited);
    assert_eq!(&records(&std::fs::read(&edited).unwrap())[0].3[54..], &[1, 2, 3, 0x77, 30, 20, 10, 0x88]);
    assert_eq!(read_png(&run("again", &edited).output("texture_1.png")).2, px);
}

#[test]
fn records_that_shared_a_body_part_when_one_is_edited() {
    let work = tempfile::tempdir().unwrap();
    // Two texture records at one offset (no Drakan file does this; SRSC allows it).
    let body = plain_texture(24, vec![1, 2, 3, 4, 5, 6]);
    let mut bytes = b"SRSC\x00\x01".to_vec();
    bytes.extend(((12 + body.len()) as u32).to_le_bytes());
    bytes.extend(2u16.to_le_bytes());
    bytes.extend(&body);
    for id in [2u16, 3] {
        for v in [0x0040u16, id, 0] {
            bytes.extend(v.to_le_bytes());
        }
        bytes.extend(12u32.to_le_bytes());
        bytes.extend((body.len() as u32).to_le_bytes());
    }
    let input = work.path().join("Shared.txd");
    std::fs::write(&input, &bytes).unwrap();
    let c = convert(&input, &work.path().join("out"));
    assert_eq!(c.code, 0, "{}", c.stderr);
    let back = work.path().join("back.txd");
    pack_ok(&c.document(), &back);
    assert_eq!(std::fs::read(&back).unwrap(), bytes, "unedited: the same bytes, one body for both");
    let png = c.output("texture_3.png");
    write_png(&png, 2, 1, &[9, 9, 9, 255, 4, 5, 6, 255]);
    let (packed, again, _) = pack_and_convert_again(&c, work.path(), "Shared.txd");
    let file = records(&packed);
    assert_eq!(file[0].3, body, "texture 2 keeps the body it shared");
    assert_eq!(&file[1].3[54..], &[9, 9, 9, 4, 5, 6]);
    assert_eq!(read_png(&again.output("texture_2.png")).2, [1, 2, 3, 255, 4, 5, 6, 255]);
    assert_eq!(read_png(&again.output("texture_3.png")).2, [9, 9, 9, 255, 4, 5, 6, 255]);
}

/// A model converted away from its textures and animations is written without them, and says so once.
#[test]
fn a_model_without_its_textures_says_what_it_went_without() {
    let work = tempfile::tempdir().unwrap();
    let alone = work.path().join("Sample.mod");
    std::fs::copy(sample("Sample.mod"), &alone).unwrap();
    let output = relic().args(["convert", "-o"]).arg(work.path().join("out")).arg(&alone).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.starts_with("relic: warning:")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    let missing = alone.with_extension("txd");
    assert!(
        warnings[0].starts_with(&format!(
            "relic: warning: {}: models and levels written without what was not found: model 1 `Crate`: \
             texture 0:2: {}: not found (and 3 more; records.json lists each)",
            alone.display(),
            missing.display()
        )),
        "{stderr}"
    );
    // With its textures beside it, only the animation file is missing.
    std::fs::copy(sample("Sample.txd"), &missing).unwrap();
    let output = relic().args(["convert", "-o"]).arg(work.path().join("again")).arg(&alone).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.starts_with("relic: warning:")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("model 2 `Wisp`: animation 0:1:") && !warnings[0].contains("more"), "{stderr}");
}

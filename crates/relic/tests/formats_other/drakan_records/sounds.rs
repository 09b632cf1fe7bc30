//! Sound 0x0302 (spec "Sound (0x0301 - 0x0302)" and "Audio format"; docs/formats/drakan.md#sound: the compressed size is
//! present only when compression_level > 0): 8 and 16 bits, mono and stereo, stored and zlib, exact samples,
//! and the WAV relic exports checked with Python's `wave` module.

use relic::codec::zlib;
use relic::drakan::records::sound::{self, to_sound, SoundRecord};
use relic::testing::check_robustness;

use super::{check_record, f, SrscFields, B};

/// A sound body in spec order; the audio is compressed when `level > 0`.
fn body(name: &str, channels: u16, bits: u16, rate: u32, level: u32, pcm: &[u8]) -> Vec<u8> {
    let b = B::new()
        .str(name)
        .u32(0x08) // looping
        .u16(channels)
        .u16(bits)
        .u32(rate)
        .i32(-500)
        .f32(2.5)
        .u32(5)
        .u32(pcm.len() as u32)
        .u32(level);
    if level > 0 {
        let packed = zlib::compress(pcm, level);
        b.u32(packed.len() as u32).bytes(&packed).done()
    } else {
        b.bytes(pcm).done()
    }
}

fn check(bytes: &[u8]) -> SoundRecord {
    let s = check_record(0x0302, bytes, sound::parse, sound::write);
    check_robustness(bytes, false, |b| sound::parse(b, 0).and_then(|s| to_sound(&s)).map(|_| ()));
    s
}

#[test]
fn eight_bit_mono_stored() {
    let pcm = [0x80, 0xFF, 0x00, 0x7F];
    let s = check(&body("Bell", 1, 8, 11025, 0, &pcm));
    assert_eq!(s.name.text, "Bell");
    assert_eq!((s.flags.value, s.channels, s.bits, s.frequency), (0x08, 1, 8, 11025));
    assert_eq!((s.volume, s.dropoff, s.priority), (-500, f(2.5), 5));
    assert_eq!((s.decompressed_size, s.compression_level), (4, 0));
    assert_eq!(s.data.0, pcm);
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["flags"]["names"], serde_json::json!(["looping"]));
    let out = to_sound(&s).unwrap();
    assert_eq!((out.channels, out.sample_rate, out.bits_per_sample), (1, 11025, 8));
    assert_eq!(out.data, pcm); // unsigned with a bias of 128, as WAV keeps it
    wav_check(&out, 1, 11025, 1, 4, &pcm);
}

#[test]
fn sixteen_bit_stereo_compressed() {
    // Interleaved, left first: (1000, -1000), (-32768, 32767).
    let samples: [i16; 4] = [1000, -1000, -32768, 32767];
    let pcm: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    let bytes = body("Gust1", 2, 16, 22050, 9, &pcm);
    let s = check(&bytes);
    assert_eq!(s.name.text, "Gust1");
    assert_eq!((s.compression_level, s.decompressed_size), (9, 8));
    assert_eq!(s.data_offset, 8 + 32 + 4); // name, fixed fields, compressed size
    let out = to_sound(&s).unwrap();
    assert_eq!((out.channels, out.sample_rate, out.bits_per_sample), (2, 22050, 16));
    assert_eq!(out.data, pcm);
    wav_check(&out, 2, 22050, 2, 2, &pcm);
}

#[test]
fn sixteen_bit_mono_stored_and_eight_bit_stereo_compressed() {
    let pcm16: Vec<u8> = [0i16, 1, -2].iter().flat_map(|s| s.to_le_bytes()).collect();
    let s = check(&body("Hum", 1, 16, 8000, 0, &pcm16));
    let out = to_sound(&s).unwrap();
    assert_eq!(out.data, pcm16);
    wav_check(&out, 1, 8000, 2, 3, &pcm16);

    let pcm8 = [0x10, 0xF0, 0x80, 0x80, 0x00, 0xFF];
    let s = check(&body("Drum", 2, 8, 44100, 1, &pcm8));
    let out = to_sound(&s).unwrap();
    assert_eq!((out.channels, out.bits_per_sample), (2, 8));
    assert_eq!(out.data, pcm8);
    wav_check(&out, 2, 44100, 1, 3, &pcm8);
}

#[test]
fn partial_frames_bad_streams_and_unknown_depths() {
    // 16-bit stereo with 6 bytes: one whole frame, the rest dropped.
    let s = check(&body("Cut", 2, 16, 8000, 0, &[1, 0, 2, 0, 3, 0]));
    assert_eq!(to_sound(&s).unwrap().data, [1, 0, 2, 0]);
    // A stream that does not inflate to decompressed_size.
    let mut bytes = body("Bad", 1, 8, 8000, 6, &[1, 2, 3]);
    let size_at = 6 + 32; // after the name and the fixed fields
    bytes[size_at..size_at + 4].copy_from_slice(&4u32.to_le_bytes());
    let s = check(&bytes);
    assert!(to_sound(&s).is_err());
    let s = check(&body("Odd", 1, 12, 8000, 0, &[0; 3]));
    assert!(matches!(to_sound(&s), Err(relic::Error::Unsupported(_))));
    let s = check(&body("Six", 6, 8, 8000, 0, &[0; 6]));
    assert!(matches!(to_sound(&s), Err(relic::Error::Unsupported(_))));
    // Trailing bytes are kept.
    let mut bytes = body("Tail", 1, 8, 8000, 0, &[1]);
    bytes.push(0x99);
    assert_eq!(check(&bytes).trailing.0, vec![0x99]);
}

/// Exports the sound to WAV and reads it with Python's `wave` module (when python3 is installed): channels,
/// rate, sample width, frame count and the frames' bytes.
fn wav_check(s: &relic::asset::Sound, channels: u16, rate: u32, width: u16, frames: usize, pcm: &[u8]) {
    let wav = relic::export::wav::encode(s).unwrap();
    if std::process::Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped the Python wave check: python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.wav");
    std::fs::write(&path, wav).unwrap();
    let script = "import sys, wave\nw = wave.open(sys.argv[1], 'rb')\n\
                  print(w.getnchannels(), w.getframerate(), w.getsampwidth(), w.getnframes())\n\
                  print(w.readframes(w.getnframes()).hex())\n";
    let out = std::process::Command::new("python3").args(["-c", script]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("{channels} {rate} {width} {frames}"));
    assert_eq!(lines[1], hex::encode(pcm));
}

#[test]
fn samples_are_stored_in_the_records_own_bits_and_channels() {
    // 16-bit range samples to 8-bit unsigned (top 8 bits) and 16-bit signed little-endian.
    assert_eq!(sound::pcm_from_samples(8, 1, 1, &[-32768, -1, 0, 255, 32767]).unwrap(), [0, 127, 128, 128, 255]);
    assert_eq!(sound::pcm_from_samples(16, 1, 1, &[-2, 300]).unwrap(), [0xFE, 0xFF, 0x2C, 0x01]);
    // Mono to stereo copies, stereo to mono takes the mean (rounded down).
    assert_eq!(sound::pcm_from_samples(16, 2, 1, &[5]).unwrap(), [5, 0, 5, 0]);
    assert_eq!(sound::pcm_from_samples(16, 1, 2, &[5, 8, -3, 0]).unwrap(), [6, 0, 0xFE, 0xFF]);
    assert!(sound::pcm_from_samples(16, 1, 3, &[1, 2, 3]).is_err());
    assert!(sound::pcm_from_samples(24, 1, 1, &[1]).is_err());
    // A compressed stereo record: compressed again at its level, sizes and rate updated, notes given.
    let s = sound::parse(&body("wind", 2, 16, 22050, 9, &[0; 8]), 0).unwrap();
    let (out, notes) = sound::with_samples(&s, 1, 11025, &[100, -100]).unwrap();
    assert_eq!((out.channels, out.bits, out.frequency, out.decompressed_size), (2, 16, 11025, 8));
    assert_eq!(out.compression_level, 9);
    assert_eq!(out.pcm().unwrap().as_ref(), [100, 0, 100, 0, 0x9C, 0xFF, 0x9C, 0xFF]);
    assert_eq!(
        notes,
        [
            "mono audio copied to both channels of the stereo record",
            "it plays at 11025 samples per second now (was 22050)"
        ]
    );
    assert_eq!(out.name, s.name);
    assert_eq!(out.volume, s.volume);
}

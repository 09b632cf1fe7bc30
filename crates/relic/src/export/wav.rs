//! WAV output for sounds, through `hound`.

use crate::asset::Sound;
use crate::error::{Error, Result};

pub fn encode(sound: &Sound) -> Result<Vec<u8>> {
    let spec = hound::WavSpec {
        channels: sound.channels,
        sample_rate: sound.sample_rate,
        bits_per_sample: sound.bits_per_sample,
        sample_format: hound::SampleFormat::Int,
    };
    let err = |e: hound::Error| Error::Unsupported(format!("WAV output: {e}"));
    let mut cursor = std::io::Cursor::new(Vec::new());
    {
        let mut w = hound::WavWriter::new(&mut cursor, spec).map_err(err)?;
        match sound.bits_per_sample {
            8 => {
                for &b in &sound.data {
                    w.write_sample(b as i8 ^ i8::MIN).map_err(err)?; // WAV stores 8-bit unsigned; hound wants i8
                }
            }
            16 => {
                for pair in sound.data.chunks_exact(2) {
                    w.write_sample(i16::from_le_bytes([pair[0], pair[1]])).map_err(err)?;
                }
            }
            bits => return Err(Error::Unsupported(format!("{bits}-bit PCM"))),
        }
        w.finalize().map_err(err)?;
    }
    Ok(cursor.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wav_keeps_samples() {
        let s = Sound { channels: 1, sample_rate: 22050, bits_per_sample: 16, data: vec![0x01, 0x00, 0xFF, 0xFF] };
        let bytes = encode(&s).unwrap();
        let mut r = hound::WavReader::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(r.spec().sample_rate, 22050);
        let samples: Vec<i16> = r.samples::<i16>().map(|s| s.unwrap()).collect();
        assert_eq!(samples, vec![1, -1]);
    }
}

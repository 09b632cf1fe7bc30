//! A whole conversion as one zip file (the browser viewer's "download converted"): the files `relic
//! convert` would write into a folder, by their `/`-separated paths below it, deflated. Written with the
//! `zip` crate; entries carry no time (1980-01-01, zip's zero), so the same files make the same bytes.

use std::io::Write;

use crate::error::{Error, Result};

/// Zips `files` (`path`, bytes) in their order. Paths are relative, `/`-separated; a path that is absolute
/// or climbs out (`..`) is refused, as it could not have come from a conversion.
pub fn write(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(files.iter().any(|(_, b)| b.len() as u64 >= u64::from(u32::MAX)));
    for (path, bytes) in files {
        if path.is_empty() || path.starts_with('/') || path.split('/').any(|p| p == ".." || p.is_empty()) {
            return Err(Error::Refused(format!("zip: refusing the path `{}`", crate::paths::display_name(path))));
        }
        zip.start_file(path.as_str(), options).map_err(zip_error)?;
        zip.write_all(bytes).map_err(|e| Error::io("zip", e))?;
    }
    Ok(zip.finish().map_err(zip_error)?.into_inner())
}

fn zip_error(e: zip::result::ZipError) -> Error {
    Error::io("zip", std::io::Error::other(e.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn zips_files_in_order_and_refuses_escapes() {
        let files = vec![("a/b.png".to_string(), b"png".to_vec()), ("c.txt".to_string(), vec![b'x'; 1000])];
        let bytes = super::write(&files).unwrap();
        // Local headers: `PK\x03\x04`, then the name at offset 30.
        assert_eq!(&bytes[..4], b"PK\x03\x04");
        assert_eq!(&bytes[30..37], b"a/b.png");
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), 2);
        let mut c = archive.by_name("c.txt").unwrap();
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut c, &mut text).unwrap();
        assert_eq!(text, vec![b'x'; 1000]);
        assert!(super::write(&[("../x".to_string(), Vec::new())]).is_err());
        assert!(super::write(&[("/x".to_string(), Vec::new())]).is_err());
    }
}

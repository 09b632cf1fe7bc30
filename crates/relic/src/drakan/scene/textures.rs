//! Textures that models and level layers name by reference (`ref {id, db}`), read from the `.txd` SRSC file
//! they live in and decoded once each, for embedding in glTF. Each file is read and parsed once per
//! conversion; a texture that cannot be found or decoded is reported, not fatal (the mesh keeps a plain
//! material).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::asset::Image;
use crate::drakan::records::texture::{self, ChannelOrder};
use crate::drakan::records::{palette, Ref};
use crate::drakan::srsc::parse;
use crate::error::{Error, Result};

/// Where the `.txd` of a database index lies, and how output names it (`Common/Common.txd`).
pub type Resolver<'a> = dyn Fn(u16) -> Option<(PathBuf, String)> + 'a;

/// A cache of `.txd` files and of the textures decoded from them.
pub struct TextureSource {
    order: ChannelOrder,
    files: HashMap<PathBuf, Option<std::sync::Arc<Vec<u8>>>>,
    images: HashMap<(PathBuf, u16), std::result::Result<Image, String>>,
    /// Bytes of files given directly (an archive's siblings), by path.
    given: HashMap<PathBuf, std::sync::Arc<Vec<u8>>>,
}

impl TextureSource {
    pub fn new(order: ChannelOrder) -> Self {
        TextureSource { order, files: HashMap::new(), images: HashMap::new(), given: HashMap::new() }
    }

    /// Makes `bytes` the content of `path` (a `.txd` that is not on disk: an archive's sibling entry).
    pub fn give(&mut self, path: PathBuf, bytes: Vec<u8>) {
        self.given.insert(path, std::sync::Arc::new(bytes));
    }

    fn file(&mut self, path: &Path) -> Option<std::sync::Arc<Vec<u8>>> {
        if let Some(bytes) = self.given.get(path) {
            return Some(bytes.clone());
        }
        self.files
            .entry(path.to_path_buf())
            .or_insert_with(|| crate::source::read(path).ok().map(std::sync::Arc::new))
            .clone()
    }

    /// The texture with record id `id` (record 0x0040) in the `.txd` at `path`, as an image (the first frame
    /// of an animated texture; 8 bpp through the file's first palette, docs/formats/drakan.md#texture-palette).
    pub fn image(&mut self, path: &Path, id: u16) -> Result<Image> {
        let key = (path.to_path_buf(), id);
        if let Some(done) = self.images.get(&key) {
            return done.clone().map_err(Error::Refused);
        }
        let decoded = match self.file(path) {
            None => Err(format!("{}: not found", path.display())),
            Some(bytes) => decode(&bytes, id, self.order).map_err(|e| format!("{}: {e}", path.display())),
        };
        self.images.insert(key, decoded.clone());
        decoded.map_err(Error::Refused)
    }

    /// The image a reference names, resolved through `resolve` (database index → `.txd`); `Err` says why
    /// there is none.
    pub fn resolve(&mut self, r: Ref, resolve: &Resolver<'_>) -> Result<(Image, String)> {
        let (path, shown) = resolve(r.db)
            .ok_or_else(|| Error::Refused(format!("texture {}:{}: database index {} is unknown", r.db, r.id, r.db)))?;
        let image = self.image(&path, r.id)?;
        Ok((image, format!("{shown}:{}", r.id)))
    }
}

fn decode(bytes: &[u8], id: u16, order: ChannelOrder) -> Result<Image> {
    let srsc = parse(bytes)?;
    let i = srsc.find(0x0040, id).ok_or_else(|| Error::Refused(format!("no texture record (0x0040) with id {id}")))?;
    let pal = srsc.find_first(0x0030).map(|p| palette::parse(srsc.body(p), srsc.body_offset(p))).transpose()?;
    let t = texture::parse(srsc.body(i), srsc.body_offset(i))?;
    texture::to_image(&t, pal.as_ref().map(|p| p.colors.as_slice()), order)
}

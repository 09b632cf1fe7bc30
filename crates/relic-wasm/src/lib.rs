//! relic in the browser: the library compiled to WebAssembly for a Web Worker (`view-web/src/worker.js`).
//! [`Viewer`] answers the `/api/…` requests of `relic view`'s page (the same JSON, the same files) from
//! the files the page was given, dropped or picked, read where they lie: a Web Worker reads any byte range
//! of a `File` synchronously (`FileReaderSync`), so nothing is copied into the page first, and an archive
//! larger than [`relic::view::volume::SLICED_FROM`] that can be read in slices (a Ragnarok GRF) is never read whole. It also
//! packs an edited file back into its game file and zips a whole conversion.
//!
//! Built by `npm run --prefix view-web build:web` (cargo for `wasm32-unknown-unknown`, then `wasm-bindgen
//! --target web`).

use std::sync::Arc;

use js_sys::{Array, Object, Reflect, Uint8Array};
use relic::source::RandomRead;
use relic::view::volume::FileSet;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;

fn read_range(file: &web_sys::File, start: u64, len: usize) -> Result<Vec<u8>, String> {
    let end = start.checked_add(len as u64).ok_or("a range past 2^64")?;
    let js = |e: JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let slice = file.slice_with_f64_and_f64(start as f64, end as f64).map_err(js)?;
    let reader = web_sys::FileReaderSync::new().map_err(js)?;
    let buffer = reader.read_as_array_buffer(&slice).map_err(js)?;
    let bytes = Uint8Array::new(&buffer).to_vec();
    if bytes.len() != len {
        return Err(format!("read {} bytes of {len} at {start}: the file changed", bytes.len()));
    }
    Ok(bytes)
}

/// What the viewer keeps of what it computed (listings, conversions, files), at most.
const CACHE_BYTES: usize = 128 << 20;

/// A `File` the page gave, read a range at a time.
#[derive(Debug)]
struct FileSlices {
    file: SendWrapper<web_sys::File>,
    len: u64,
}

impl RandomRead for FileSlices {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        read_range(&self.file, offset, len).map_err(std::io::Error::other)
    }
}

/// The viewer of the files a page was given.
#[wasm_bindgen]
pub struct Viewer {
    inner: Option<relic::view::Viewer>,
}

fn set(object: &Object, key: &str, value: &JsValue) -> Result<(), JsError> {
    Reflect::set(object, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|_| JsError::new("cannot build the answer"))
}

fn strings(list: &[String]) -> JsValue {
    list.iter().map(|s| JsValue::from_str(s)).collect::<Array>().into()
}

/// A panic is a bug: its message goes to the console and to `globalThis.__relicPanic`, where the worker
/// finds it when the call traps, and reports it (then starts a fresh instance).
fn panic_hook(info: &std::panic::PanicHookInfo<'_>) {
    let message = format!("relic panicked (please report this): {info}");
    web_sys::console::error_1(&JsValue::from_str(&message));
    let _ = Reflect::set(&js_sys::global(), &JsValue::from_str("__relicPanic"), &JsValue::from_str(&message));
}

#[wasm_bindgen]
impl Viewer {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Viewer {
        std::panic::set_hook(Box::new(panic_hook));
        Viewer { inner: None }
    }

    /// Views `files` (an array of `{path, file}`: `/`-separated paths relative to what was opened, and the
    /// JS `File`); one file whose path has no `/` is the root itself, else the root is a folder named
    /// `root_name`. Replaces what was viewed.
    pub fn mount(&mut self, files: Array, root_name: String) -> Result<(), JsError> {
        let mut given: Vec<(String, Arc<dyn RandomRead>, String)> = Vec::new();
        for (i, entry) in files.iter().enumerate() {
            let path = Reflect::get(&entry, &JsValue::from_str("path"))
                .ok()
                .and_then(|p| p.as_string())
                .ok_or_else(|| JsError::new(&format!("files[{i}].path is not a string")))?;
            let file: web_sys::File = Reflect::get(&entry, &JsValue::from_str("file"))
                .ok()
                .and_then(|f| f.dyn_into().ok())
                .ok_or_else(|| JsError::new(&format!("files[{i}].file is not a File")))?;
            let len = file.size() as u64;
            let version = format!("{len}@{}", file.last_modified());
            given.push((path, Arc::new(FileSlices { file: SendWrapper::new(file), len }), version));
        }
        let volume = FileSet::new(&root_name, given).map_err(|e| JsError::new(&e))?;
        self.inner = Some(relic::view::Viewer::new(Arc::new(volume), CACHE_BYTES));
        Ok(())
    }

    fn viewer(&self) -> Result<&relic::view::Viewer, JsError> {
        self.inner.as_ref().ok_or_else(|| JsError::new("nothing is open: drop or pick files first"))
    }

    /// Answers an `/api/…` request as `relic view` does: `{status, contentType, fileName, body}`.
    pub fn request(&self, url: &str) -> Result<JsValue, JsError> {
        let answer = self.viewer()?.get(url);
        let out = Object::new();
        set(&out, "status", &JsValue::from(answer.status))?;
        set(&out, "contentType", &JsValue::from_str(answer.content_type))?;
        if let Some((name, _)) = &answer.file {
            set(&out, "fileName", &JsValue::from_str(name))?;
        }
        let bytes = answer.into_bytes().map_err(|e| JsError::new(&e.to_string()))?;
        set(&out, "body", &Uint8Array::from(bytes.as_slice()).into())?;
        Ok(out.into())
    }

    /// Packs an edited file (`input_name`, its bytes) into the game file of the item at `path`:
    /// `{fileName, body, notes, companions: [{fileName, body}]}`.
    pub fn pack(&self, path: &str, input_name: &str, bytes: &[u8]) -> Result<JsValue, JsError> {
        let packed = self.viewer()?.pack(path, input_name, bytes).map_err(|e| JsError::new(&e))?;
        let out = Object::new();
        set(&out, "fileName", &JsValue::from_str(&packed.file_name))?;
        set(&out, "body", &Uint8Array::from(packed.bytes.as_slice()).into())?;
        set(&out, "notes", &strings(&packed.notes))?;
        let companions = Array::new();
        for (name, bytes) in &packed.companions {
            let c = Object::new();
            set(&c, "fileName", &JsValue::from_str(name))?;
            set(&c, "body", &Uint8Array::from(bytes.as_slice()).into())?;
            companions.push(&c);
        }
        set(&out, "companions", &companions.into())?;
        Ok(out.into())
    }

    /// The whole conversion of the item at `path`, zipped: `{fileName, body, files, notes, failures}`.
    pub fn zip(&self, path: &str) -> Result<JsValue, JsError> {
        let zipped = self.viewer()?.zip(path).map_err(|e| JsError::new(&e))?;
        let out = Object::new();
        set(&out, "fileName", &JsValue::from_str(&zipped.file_name))?;
        set(&out, "body", &Uint8Array::from(zipped.bytes.as_slice()).into())?;
        set(&out, "files", &strings(&zipped.files))?;
        set(&out, "notes", &strings(&zipped.notes))?;
        set(&out, "failures", &strings(&zipped.failures))?;
        Ok(out.into())
    }
}

impl Default for Viewer {
    fn default() -> Self {
        Viewer::new()
    }
}

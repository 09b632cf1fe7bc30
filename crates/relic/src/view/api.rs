//! The viewer's answers, whatever carries them: the `/api/…` endpoints of [`super`] answered from a
//! [`Core`] (the tree of a volume and its caches), by the HTTP server (`relic view`) and, in the browser, by
//! [`Viewer`] in a Web Worker (`crates/relic-wasm`), so that both give the same JSON and the same files.
//! The viewer also packs an edited file back into the game format of an item ([`Viewer::pack`]) and zips
//! the whole conversion of an item ([`Viewer::zip`]), for the page that has no folder to write into.

use std::sync::Arc;

use serde_json::{json, Value};

use super::cache::Cache;
use super::preview::{self, Body};
use super::request::{shown, Query, Rejection};
use super::tree::{Item, Tree};
use super::volume::Volume;

/// The tree of a volume, with the cache of the files made from it.
pub(super) struct Core {
    pub(super) tree: Tree,
    pub(super) files: Cache<Arc<Vec<u8>>>,
}

impl Core {
    pub(super) fn new(volume: Arc<dyn Volume>, cache_bytes: usize, lookup: &super::Lookup) -> Core {
        Core {
            tree: Tree::new(volume, cache_bytes, lookup),
            files: Cache::new(cache_bytes / 4, |b: &Arc<Vec<u8>>| b.len()),
        }
    }

    /// Answers an `/api/…` request target (`/api/tree?path=…`): a refusal is an answer too (its JSON
    /// `{"error"}` and status).
    pub(super) fn answer(&self, target: &str) -> Answer {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let answer = match path {
            "/api/tree" | "/api/info" | "/api/preview" | "/api/file" => {
                Query::parse(query).and_then(|q| api(self, path, &q))
            }
            _ => Err(Rejection::new(404, format!("no endpoint `{}`", shown(path)))),
        };
        answer.unwrap_or_else(|r| Answer::error(&r))
    }
}

/// An answer to an `/api/…` request.
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub(super) body: Body,
    /// A file's name, and whether it was asked for as a download (`download=1`).
    pub file: Option<(String, bool)>,
}

impl Answer {
    pub(super) fn json(status: u16, value: &Value) -> Answer {
        let bytes = serde_json::to_vec(value).unwrap_or_else(|_| b"{\"error\":\"JSON output\"}".to_vec());
        Answer { status, content_type: "application/json", body: Body::Made(Arc::new(bytes)), file: None }
    }

    pub(super) fn error(r: &Rejection) -> Answer {
        Answer::json(r.status, &json!({"error": r.message}))
    }

    /// The body's length in bytes.
    pub fn len(&self) -> u64 {
        self.body.len()
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The body, read whole.
    pub fn into_bytes(self) -> std::io::Result<Vec<u8>> {
        let len = self.body.len();
        let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        std::io::Read::read_to_end(&mut self.body.reader(0, len), &mut out)?;
        Ok(out)
    }
}

/// The viewer without a server: what the browser build runs in its Web Worker over the files the page was
/// given. Every `/api/…` request the page makes of `relic view` is answered by [`Viewer::get`] with the same
/// JSON and the same bytes.
pub struct Viewer {
    core: Core,
}

/// A game file packed from an edited one ([`Viewer::pack`]).
#[derive(Debug)]
pub struct Packed {
    /// The game file's name (the item's).
    pub file_name: String,
    pub bytes: Vec<u8>,
    /// Files the format writes beside it (an Evil Islands figure's `.bon`), by plain name.
    pub companions: Vec<(String, Vec<u8>)>,
    pub notes: Vec<String>,
}

/// The whole conversion of an item, zipped ([`Viewer::zip`]).
#[derive(Debug)]
pub struct Zipped {
    /// `<item's name>.zip`.
    pub file_name: String,
    pub bytes: Vec<u8>,
    /// Files in the zip, in order.
    pub files: Vec<String>,
    pub notes: Vec<String>,
    /// Parts that could not be converted (`input: message`), as `relic convert` reports them.
    pub failures: Vec<String>,
}

impl Viewer {
    /// A viewer over `volume`, keeping up to `cache_bytes` of what it computes.
    pub fn new(volume: Arc<dyn Volume>, cache_bytes: usize) -> Viewer {
        Viewer::with_lookup(volume, cache_bytes, &super::Lookup::default())
    }

    /// A viewer whose conversions also look where `lookup` says (`--textures`, `--models`, `--palette`), as
    /// `relic view`'s server does.
    pub fn with_lookup(volume: Arc<dyn Volume>, cache_bytes: usize, lookup: &super::Lookup) -> Viewer {
        Viewer { core: Core::new(volume, cache_bytes, lookup) }
    }

    /// Answers an `/api/…` request target as `relic view` does.
    pub fn get(&self, target: &str) -> Answer {
        self.core.answer(target)
    }

    /// Writes the game file of the item at `path` (its format) from an edited file (`input_name` says
    /// what it is: a PNG, the JSON of `relic convert --to json`, a glTF…), as `relic pack FORMAT INPUT -o
    /// NAME` does, read back before it is given.
    pub fn pack(&self, path: &str, input_name: &str, content: &[u8]) -> Result<Packed, String> {
        let data = self.data(path)?;
        let format = data.format.ok_or_else(|| format!("`{}` is not a file relic knows", shown(path)))?;
        let file_name = path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(self.core.tree.volume.name());
        let request = crate::registry::PackRequest { output: file_name.into(), ..Default::default() };
        let packed = crate::game_file::pack_bytes(format, input_name, content, &request).map_err(|e| e.to_string())?;
        Ok(Packed {
            file_name: file_name.to_string(),
            bytes: packed.bytes,
            companions: packed.companions,
            notes: packed.notes,
        })
    }

    /// The whole conversion of the item at `path` (a file or an archive entry), as `relic convert ITEM -o
    /// OUT` writes it into `OUT`, zipped.
    pub fn zip(&self, path: &str) -> Result<Zipped, String> {
        let data = self.data(path)?;
        let bytes = self.core.tree.bytes(&data).map_err(|r| r.message)?;
        let request = crate::ops::ConvertRequest::default();
        // As `relic convert` with no flags: no mip levels (the preview shows them).
        let options = crate::registry::ConvertOptions { mips: false, ..data.options.clone() };
        let made = crate::ops::convert_in_memory(&data.name, bytes, data.disk.as_deref(), &options, &request);
        let base = path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(self.core.tree.volume.name());
        let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
        let files: Vec<String> = made.files.iter().map(|(name, _)| name.clone()).collect();
        let bytes = crate::export::zip::write(&made.files).map_err(|e| e.to_string())?;
        Ok(Zipped { file_name: format!("{stem}.zip"), bytes, files, notes: made.notes, failures: made.failures })
    }

    /// The file or entry at `path`.
    fn data(&self, path: &str) -> Result<super::tree::Data, String> {
        let path = super::request::item_path(path).map_err(|r| r.message)?;
        match self.core.tree.resolve(&path).map_err(|r| r.message)? {
            Item::Data(data) => Ok(data),
            _ => Err(format!("`{}` is not a file", shown(&path))),
        }
    }
}

/// Appends `extra` to every URL of the item's own files in a preview.
fn add_query(v: &mut Value, extra: &str) {
    match v {
        Value::String(s) if s.starts_with("/api/file?") => s.push_str(extra),
        Value::Array(a) => a.iter_mut().for_each(|x| add_query(x, extra)),
        Value::Object(o) => o.values_mut().for_each(|x| add_query(x, extra)),
        _ => {}
    }
}

/// The item paths of `palette=` and `head_palette=` (the latter only with a head, `with`).
fn picked_palettes(query: &Query, endpoint: &str, with_head: bool) -> Result<[Option<String>; 2], Rejection> {
    let mut out = [None, None];
    for (slot, key) in out.iter_mut().zip(["palette", "head_palette"]) {
        if let Some(p) = query.get(key).filter(|p| !p.is_empty() && endpoint != "/api/tree") {
            *slot = Some(super::request::item_path(p)?);
        }
    }
    if out[1].is_some() && !with_head {
        return Err(Rejection::bad("`head_palette` draws the head of `with` in another palette: give `with` too"));
    }
    Ok(out)
}

pub(super) fn api(state: &Core, endpoint: &str, query: &Query) -> Result<Answer, Rejection> {
    let path = query.path()?;
    let tree = &state.tree;
    let mut item = tree.resolve(&path)?;
    // A head drawn over a Ragnarok body ACT (`with=HEAD_PATH`): the item converted with it, and the URLs
    // of its files asking for the same.
    let with = match query.get("with").filter(|w| !w.is_empty() && endpoint != "/api/tree") {
        Some(w) => Some(super::request::item_path(w)?),
        None => None,
    };
    let with = with.as_deref();
    if let Some(head) = with {
        let Item::Data(data) = &item else {
            return Err(Rejection::bad("`with` is a head drawn over a Ragnarok ACT: this item is none"));
        };
        item = Item::Data(tree.with_head(data.clone(), head)?);
    }
    // The way the head looks in idle and sit (`head_direction=0|1|2|all`, `--option
    // ro-act.head-direction`): only with a head.
    let turn = match query.get("head_direction").filter(|d| !d.is_empty()) {
        None => None,
        Some(_) if with.is_none() => {
            return Err(Rejection::bad("`head_direction` turns the head drawn with `with`: give `with` too"))
        }
        Some(d @ ("0" | "1" | "2" | "all")) => Some(d),
        Some(other) => {
            return Err(Rejection::bad(format!("`head_direction` is 0, 1, 2 or all, not `{}`", shown(other))))
        }
    };
    if let (Some(d), Item::Data(data)) = (turn, &mut item) {
        data.options.settings.push((crate::ragnarok::act::convert::HEAD_DIRECTION_OPTION.to_string(), d.to_string()));
        // Another key: each direction is converted and cached apart.
        data.version = format!("{}\0head_direction\0{d}", data.version);
    }
    // Palettes picked among the items (`palette=` the sprite's own, `head_palette=` the head's), as
    // `relic convert --palette` and `--head-palette`; the URLs carry them too.
    let palettes = picked_palettes(query, endpoint, with.is_some())?;
    if palettes.iter().any(Option::is_some) {
        let Item::Data(data) = &item else {
            return Err(Rejection::bad("`palette` draws a sprite in another palette: this item is none"));
        };
        item = Item::Data(tree.with_palettes(data.clone(), palettes[0].as_deref(), palettes[1].as_deref())?);
    }
    let add_with = |mut v: Value| {
        let mut extra = String::new();
        if let Some(head) = with {
            extra = format!("&with={}", super::request::percent_encode(head));
            if let Some(d) = turn {
                extra.push_str(&format!("&head_direction={d}"));
            }
        }
        for (key, picked) in ["palette", "head_palette"].into_iter().zip(&palettes) {
            if let Some(p) = picked {
                extra.push_str(&format!("&{key}={}", super::request::percent_encode(p)));
            }
        }
        if !extra.is_empty() {
            add_query(&mut v, &extra);
        }
        v
    };
    match endpoint {
        "/api/tree" => {
            let children = tree.children(&item)?;
            let mut value = json!({"path": path, "children": children});
            if path.is_empty() {
                let kind = match &item {
                    Item::Folder { .. } => "folder",
                    Item::Data(d) => d.format.map_or("file", super::tree::kind_of),
                    _ => "file",
                };
                value["root"] = json!({"name": tree.volume.name(), "is_dir": tree.volume.is_dir(), "kind": kind});
            }
            Ok(Answer::json(200, &value))
        }
        "/api/info" => Ok(Answer::json(200, &preview::info(tree, &item))),
        "/api/preview" => Ok(match preview::preview(tree, &item) {
            Ok(v) => Answer::json(200, &add_with(v)),
            Err((status, v)) => Answer::json(status, &add_with(v)),
        }),
        _ => {
            let out = preview::file(tree, &state.files, &item, query)?;
            let download = query.get("download").is_some_and(|v| v == "1");
            Ok(Answer {
                status: 200,
                content_type: out.content_type,
                body: out.body,
                file: Some((out.file_name, download)),
            })
        }
    }
}

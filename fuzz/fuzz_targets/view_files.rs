//! The viewer over files given to it (`relic::view::Viewer` over a `FileSet`, what the browser build runs):
//! the first byte picks the file's name (and so its format, and what it looks for beside it), the second
//! whether archives are read in slices; the rest is the file. Every item the tree reaches (at most 48, four
//! levels), its preview and the first files it offers are asked for, the item is zipped and packed from
//! itself as JSON: nothing panics, every answer has an HTTP status and JSON where JSON is promised.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use relic::source::{MemorySlices, RandomRead};
use relic::view::request::percent_encode;
use relic::view::volume::FileSet;
use relic::view::Viewer;

/// Keep in step with `fuzz/seed` (`VIEW_NAMES`).
const NAMES: [&str; 12] = [
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

fn json(viewer: &Viewer, target: &str) -> serde_json::Value {
    let answer = viewer.get(target);
    assert!((200..600).contains(&answer.status), "{target}: status {}", answer.status);
    let json = answer.content_type == "application/json";
    let bytes = answer.into_bytes().expect("an answer in memory reads");
    if json {
        serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{target}: not JSON ({e})"))
    } else {
        serde_json::Value::Null
    }
}

fuzz_target!(|data: &[u8]| {
    let [pick, mode, file @ ..] = data else { return };
    let name = NAMES[usize::from(*pick) % NAMES.len()];
    let path = format!("game/{name}");
    let bytes: Arc<dyn RandomRead> = Arc::new(MemorySlices::from(file.to_vec()));
    let set = FileSet::new("fuzz", vec![(path.clone(), bytes, "1".into())]).expect("a plain path");
    let set = if mode & 1 == 1 { set.sliced_from(0) } else { set };
    let viewer = Viewer::new(Arc::new(set), 8 << 20);
    let mut queue = vec![(String::new(), 0)];
    let mut asked = 0;
    while let Some((item, depth)) = queue.pop() {
        asked += 1;
        if asked > 48 {
            break;
        }
        let encoded = percent_encode(&item);
        let tree = json(&viewer, &format!("/api/tree?path={encoded}"));
        if depth < 4 {
            for child in tree["children"].as_array().into_iter().flatten() {
                if let Some(p) = child["path"].as_str() {
                    queue.push((p.to_string(), depth + 1));
                }
            }
        }
        let _ = json(&viewer, &format!("/api/info?path={encoded}"));
        let preview = json(&viewer, &format!("/api/preview?path={encoded}"));
        for download in preview["downloads"].as_array().into_iter().flatten().take(4) {
            if let Some(url) = download["url"].as_str() {
                let _ = json(&viewer, url);
            }
        }
    }
    let _ = viewer.zip(&path);
    let _ = viewer.pack(&path, "edited.json", file);
});

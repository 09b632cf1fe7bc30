//! The app's files, embedded in the binary so that `relic view` needs neither network nor Node at run
//! time. They are built from `view-web/` (`npm ci --prefix view-web && npm run --prefix view-web build`)
//! into `dist/` beside this file, which is committed; `dist/build.json` records the SHA-256 of the sources
//! they were built from and of each built file, and the test `view_bundle` fails when either no longer
//! matches (sources changed without a rebuild, or a built file edited by hand).

/// One embedded file.
pub struct File {
    pub name: &'static str,
    pub content_type: &'static str,
    pub bytes: &'static [u8],
}

/// The page, served at `/`.
pub const INDEX: &File =
    &File { name: "index.html", content_type: "text/html; charset=utf-8", bytes: include_bytes!("dist/index.html") };

/// The files served under `/assets/`.
pub const FILES: &[File] = &[
    File { name: "app.js", content_type: "text/javascript; charset=utf-8", bytes: include_bytes!("dist/app.js") },
    File { name: "app.css", content_type: "text/css; charset=utf-8", bytes: include_bytes!("dist/app.css") },
];

/// What the files were built from (`dist/build.json`).
pub const BUILD_JSON: &str = include_str!("dist/build.json");

/// The file served as `/assets/NAME`: looked up by exact name, so no request reaches anything else.
pub fn get(name: &str) -> Option<&'static File> {
    FILES.iter().find(|f| f.name == name)
}

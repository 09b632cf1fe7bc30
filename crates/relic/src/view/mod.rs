//! `relic view`: a local browser viewer for every asset relic opens. [`serve`] starts an HTTP server over a
//! file, an archive or a folder and returns at once with the address it is bound to; the single-page app it
//! serves (built from `view-web/`, embedded in the binary, see [`assets`]) shows a lazily loaded tree of what
//! relic can open under that path, nested archives included, and previews the selected item: images and
//! sprite frames, sounds, models (three.js), documents and scripts, with the item's `info` and downloads of
//! its converted files.
//!
//! Why a server and not a static export: conversion happens on demand, through the same library calls as
//! `relic convert` (`Codec::convert`/`convert_at`, the archive's `entry_options_shared`, [`crate::export`]),
//! so a 17,000-entry archive or a whole game folder opens at once and only what is looked at is converted,
//! and a Ragnarok model finds its textures as `convert` does (in its GRF, its client folder's
//! `data\texture\`, a GRF beside it, or `--textures`: `relic view` takes convert's `--textures`, `--models`
//! and `--palette`, see [`Lookup`]); what the conversion warns of (a texture not found) is the preview's
//! `warnings`.
//! Requests that work on a file (`info`, previews, files, and the listing of anything inside a file, nested
//! archives included) are answered by a bounded set of workers ([`ViewOptions::heavy_jobs`]), never by the
//! request threads, so that the app and the folders' tree answer at once while files are converted. What
//! they compute (listings, entries' bytes, `info`, conversions, files) is cached by item path and file
//! version, computed once however many requests ask for it at the same time (the `cache` module).
//!
//! # Reading files
//!
//! A file is memory-mapped, not read: a 2 GB archive is listed, and one entry of it read, without reading the rest. A
//! map faults where its file was truncated after it was made, which would end the server, so [`serve`] first turns on
//! [`crate::source::guard_truncation`]: pages past the cut then read as zeros, and what was made of a file cut short
//! while it was read is refused (`422`, "cut short while it was read: ask again") and not kept; asked again, the file
//! is read as it is now (a new version, a new cache key). The maps `convert` makes of the files beside an item
//! (textures) are guarded alike (a texture cut short reads as zeros past the cut). An archive entry is read (inflated)
//! into memory when first needed, once, refused (`413`) past `--max-entry-size` before anything is read; `info` and
//! conversions are computed from it once and cached, so asking again reads nothing. Raw downloads of files are read
//! from the file as they are sent; a file truncated meanwhile ends the answer short of its `Content-Length` and the
//! connection is closed, so no client waits for the rest.
//!
//! # Items
//!
//! An item is addressed by its path relative to the root, `/`-separated, with archive entries below their
//! archive (`textures.res/wall.mmp`, `example.res/unit.bon/body.bon`) and the converted files of record
//! containers below the container (`Sample.sdb/Ambience/2_hum.wav`); see the `tree` module.
//!
//! # Endpoints
//!
//! Every endpoint answers `GET` (and `HEAD`); errors are JSON `{"error": "<relic's one-line error>"}` with a
//! 4xx or 5xx status. A query of more than [`request::MAX_PARAMETERS`] parameters is refused (400).
//!
//! | endpoint | answer |
//! |---|---|
//! | `GET /` | the app (`index.html`) |
//! | `GET /assets/NAME` | the app's embedded files (`app.js`, `app.css`) |
//! | `GET /api/tree?path=P` | the children of item `P`, one level: `{path, children: [{name, path, kind, format, size, expandable, record}]}` (`P` empty: the root, which also gives `root`) |
//! | `GET /api/info?path=P` | `{path, name, kind, format, size, info, record}`: the format's `info` of the item |
//! | `GET /api/preview?path=P` | what the preview pane needs: kind, info, the converted assets (image frames with their URLs, sound, model, document tables, text), downloads, or the listing of an archive |
//! | `…&with=H` (`info`, `preview`, `file`) | a Ragnarok body ACT `P` drawn with the head ACT `H` (another item, its SPR the item `H` ending `.spr`) over it, as `relic convert --with`: a Ragnarok ACT's preview lists the heads it may be drawn with as `heads: [{name, path, role}]` (at most 200; `heads_total`, `heads_note`): for a body in the client's layout (`…/몸통/남/`, `act_role: "body"`) the ACTs of `…/머리통/남/` first (role `head`), then the other bodies of its folder (`body`); elsewhere the other ACTs of its folder (`act`); for a head (`…/머리통/…`, `act_role: "head"`) none; only ACTs with their `.spr` beside them. With `with`, its file URLs (frames and downloads) carry it; `&head_direction=0\|1\|2\|all` (only with `with`) picks the head's direction in idle and sit as `--option ro-act.head-direction` (0, straight, by default), and the URLs carry it too; `H` goes through the same path check as `path` |
//! | `…&palette=Q`, `…&head_palette=Q2` (`info`, `preview`, `file`) | the sprite drawn in the palette item `Q` (a Ragnarok `.pal` or any palette `--palette` reads), as `relic convert --palette`; `head_palette` (only with `with`) the head in `Q2`, as `--head-palette`: each sprite takes its own, a hair dye dyes the head only. A Ragnarok ACT's preview offers `palettes: [{name, path, role}]` (at most 200; `palettes_total`): the `.pal` files of its folder (role `folder`), then in the client's layout its dyes `<root>/palette/몸/<body>_<n>.pal` (role `dye`); with `with`, `head_palettes` (`head_palettes_total`) the same for the head: its folder's, then `<root>/palette/머리/머리<head>_<n>.pal`. The URLs carry them; `Q` goes through the same path check as `path` |
//! | `GET /api/file?path=P&as=EXT[&asset=I][&frame=J][&download=1]` | a converted file (`png`, `wav`, `glb`, `json`, `ini`, `txt`, …: asset `I`, frame `J` of an image), `as=json` without `asset` the file's own data (`convert --to json`), `as=raw` its bytes (read from the file as they are sent, never from a memory map); `download=1` adds `Content-Disposition: attachment`; a single `Range: bytes=…` is answered `206` (`416` past the end) |
//!
//! # Security
//!
//! The server binds to a loopback address unless the caller allows another ([`ViewOptions::allow_any_host`],
//! `--unsafe-host`). Every request's `Host` header must name the address served (`127.0.0.1:PORT`,
//! `[::1]:PORT` or `localhost:PORT`), so a web page that rebinds its own domain name to 127.0.0.1 cannot read
//! the server (DNS rebinding). Every `path` goes through one check ([`request::item_path`]): after
//! percent-decoding, no `..` or `.` component, no empty component, no absolute path, drive letter,
//! backslash, NUL or control character; then the `tree` module resolves it on disk component by component,
//! canonicalizing each and refusing anything (a symbolic link, a junction) that leads outside the root, and
//! anything that is not a regular file or a folder. Only `GET`/`HEAD` are answered; files are sent with
//! `X-Content-Type-Options: nosniff` and a sandboxing `Content-Security-Policy`, raw bytes always as
//! `application/octet-stream`, so a file under the root can never run as a page. Nothing is ever written:
//! inputs are opened read-only (see [Reading files](#reading-files)) and conversions stay in memory.
//!
//! What a conversion finds by itself lies under the root as well (for a single file, under its folder): the
//! conversion is told the root ([`crate::registry::Nearby::confine`]), so a model's walk up to its
//! client folder's `data/texture` stops there, and the files it finds (textures, the GRFs and files beside an
//! item, a map's models, a Drakan level's databases, an Evil Islands map's sectors) are read through no link
//! ([`crate::paths::read_found`], refusing a link at every component as `relic pack` does), the refusal being
//! one of the preview's `warnings`. What [`Lookup`] names (`--textures`, `--models`, `--palette`) is the
//! user's own choice and is read wherever it is.

mod api;
pub mod assets;
mod cache;
#[cfg(feature = "view")]
mod http;
mod preview;
pub mod request;
pub mod sliced;
mod tree;
pub mod volume;

pub use api::{Answer, Packed, Viewer, Zipped};

/// Where a viewer's conversions look beyond the files beside each item: `relic view --textures`, `--models`
/// and `--palette`, meaning what they mean to `relic convert` ([`crate::registry::ConvertOptions`]'s fields
/// of the same names). The files are read as `convert` reads them, wherever they are (they need not lie
/// under the root), and nothing of them is served but what the conversions make of them.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    /// Where models and maps find their textures: a folder or an archive (a GRF, a RES).
    pub textures: Option<std::path::PathBuf>,
    /// Where maps find their models: a folder or an archive.
    pub models: Option<std::path::PathBuf>,
    /// The palette indexed images are drawn with.
    pub palette: Option<std::path::PathBuf>,
}

impl Lookup {
    /// Refuses a path that is not there (a folder or a file for `textures` and `models`, a file for
    /// `palette`), so that a mistyped flag is said once at the start rather than by every conversion.
    pub fn check(&self) -> crate::Result<()> {
        let flags = [
            ("--textures", &self.textures, true),
            ("--models", &self.models, true),
            ("--palette", &self.palette, false),
        ];
        for (flag, path, folder_too) in flags {
            let Some(path) = path else { continue };
            let meta = std::fs::metadata(path).map_err(|e| crate::Error::io(path, e))?;
            if !(meta.is_file() || (folder_too && meta.is_dir())) {
                let what = if folder_too { "a folder or an archive" } else { "a palette file" };
                return Err(crate::Error::Refused(format!("{flag} {}: not {what}", path.display())));
            }
        }
        Ok(())
    }
}

#[cfg(feature = "view")]
mod server;
#[cfg(feature = "view")]
pub use server::*;

//! The HTTP server of `relic view` (the `view` feature): options, start and stop.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{http, volume};
use crate::error::{Error, Result};

/// How [`serve`] listens.
#[derive(Debug, Clone)]
pub struct ViewOptions {
    /// The address to bind to; a loopback address unless `allow_any_host`.
    pub host: IpAddr,
    /// The port; 0 takes a free one.
    pub port: u16,
    /// Allow a host that is not a loopback address (`--unsafe-host`): anyone who can reach it can then read
    /// every file under the root.
    pub allow_any_host: bool,
    /// Threads that answer the app and the folders on disk.
    pub threads: usize,
    /// Bytes of converted results kept in memory.
    pub cache_bytes: usize,
    /// Requests that work on a file (`/api/info`, `/api/preview`, `/api/file`, `/api/tree` inside a file)
    /// answered at once, each on a worker of its own; the request threads hand them over and stay free for the app and the tree. Up
    /// to [`HEAVY_QUEUE`] more wait; past that they are answered `503` with `Retry-After`.
    pub heavy_jobs: usize,
    /// Where conversions look beyond what lies beside each file, as `relic convert`'s `--textures`,
    /// `--models` and `--palette`.
    pub lookup: super::Lookup,
}

/// Work a server did ([`Server::stats`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub entries_read: u64,
    pub infos_made: u64,
    pub listings_made: u64,
}

/// Requests that work on a file waiting for a heavy worker, at most.
pub const HEAVY_QUEUE: usize = 64;

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            allow_any_host: false,
            threads: 4,
            cache_bytes: 512 << 20,
            heavy_jobs: 4,
            lookup: super::Lookup::default(),
        }
    }
}

/// A host name given by a user, for `--host`: `localhost` and IP addresses.
pub fn parse_host(text: &str) -> std::result::Result<IpAddr, String> {
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::V4(Ipv4Addr::LOCALHOST));
    }
    text.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .map_err(|_| format!("`{text}` is not an IP address or `localhost`"))
}

/// The URL of the app served at `addr`.
pub fn url_of(addr: SocketAddr) -> String {
    match addr {
        SocketAddr::V4(a) => format!("http://{}:{}/", a.ip(), a.port()),
        SocketAddr::V6(a) => format!("http://[{}]:{}/", a.ip(), a.port()),
    }
}

/// A running viewer. Dropping it stops the server (requests in flight finish).
pub struct Server {
    addr: SocketAddr,
    http: Arc<tiny_http::Server>,
    state: Arc<http::State>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Server {
    /// The address the server is bound to (the port chosen when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The app's URL, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        url_of(self.addr)
    }

    /// How much work the server did: entries read, `info`s and listings computed (for tests).
    #[doc(hidden)]
    pub fn stats(&self) -> Stats {
        let s = &self.state.core.tree.stats;
        let load = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
        Stats {
            entries_read: load(&s.entries_read),
            infos_made: load(&s.infos_made),
            listings_made: load(&s.listings_made),
        }
    }

    /// Blocks until the server stops (never, unless another thread stops it).
    pub fn wait(mut self) {
        for t in std::mem::take(&mut self.threads) {
            let _ = t.join();
        }
    }

    fn stop(&mut self) {
        self.state.stopping.store(true, std::sync::atomic::Ordering::SeqCst);
        for _ in &self.threads {
            self.http.unblock();
        }
        for t in std::mem::take(&mut self.threads) {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Serves the viewer over `root` (a file, an archive or a folder) and returns once it listens.
pub fn serve(root: &Path, options: ViewOptions) -> Result<Server> {
    start(root, None, options)
}

/// Serves the files of a folder as they are (`relic view --static DIR`): the static site of the viewer
/// (`npm run --prefix view-web build:web`), for a local check; any static server serves it as well. The
/// same address rules as [`serve`]; nothing but the folder's files is answered.
pub fn serve_static(dir: &Path, options: ViewOptions) -> Result<Server> {
    let canonical = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
    if !canonical.is_dir() {
        return Err(Error::Refused(format!("{}: not a folder (the static site is a folder)", dir.display())));
    }
    if !canonical.join("index.html").is_file() {
        return Err(Error::Refused(format!(
            "{}: no index.html (build the site with `npm run --prefix view-web build:web`)",
            dir.display()
        )));
    }
    start(&canonical, Some(canonical.clone()), options)
}

fn start(root: &Path, static_dir: Option<PathBuf>, options: ViewOptions) -> Result<Server> {
    if !options.allow_any_host && !options.host.is_loopback() {
        return Err(Error::Refused(format!(
            "refusing to serve on {}: not a loopback address (anyone who reaches it could read every file under {})",
            options.host,
            root.display()
        )));
    }
    options.lookup.check()?;
    // Before any file is mapped: see Reading files.
    crate::source::guard_truncation();
    let volume: Arc<dyn volume::Volume> = Arc::new(volume::DiskVolume::new(root)?);
    let bind = SocketAddr::new(options.host, options.port);
    let http = tiny_http::Server::http(bind).map_err(|e| Error::io(PathBuf::from(bind.to_string()), other_io(e)))?;
    let addr = http.server_addr().to_ip().ok_or_else(|| Error::Refused("the server has no IP address".into()))?;
    let http = Arc::new(http);
    let mut state = http::State::new(volume, addr, options.allow_any_host, options.cache_bytes, &options.lookup);
    state.static_dir = static_dir;
    let state = Arc::new(state);
    // The heavy workers end when the request threads, which hold the queue's senders, are gone.
    let (heavy, queue) = std::sync::mpsc::sync_channel(HEAVY_QUEUE);
    let queue = Arc::new(std::sync::Mutex::new(queue));
    let mut threads = (0..options.threads.max(1))
        .map(|i| {
            let (http, state, heavy) = (Arc::clone(&http), Arc::clone(&state), heavy.clone());
            std::thread::Builder::new()
                .name(format!("relic-view-{i}"))
                .spawn(move || http::run(&http, &state, &heavy))
                .map_err(|e| Error::io("thread", e))
        })
        .collect::<Result<Vec<_>>>()?;
    drop(heavy);
    for i in 0..options.heavy_jobs.max(1) {
        let (state, queue) = (Arc::clone(&state), Arc::clone(&queue));
        let worker = std::thread::Builder::new()
            .name(format!("relic-view-work-{i}"))
            .spawn(move || http::work(&state, &queue))
            .map_err(|e| Error::io("thread", e))?;
        threads.push(worker);
    }
    Ok(Server { addr, http, state, threads })
}

fn other_io(e: Box<dyn std::error::Error + Send + Sync>) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

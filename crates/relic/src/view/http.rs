//! The HTTP side: request threads take requests from `tiny_http`, check the method, the `Host` header and
//! the request target, route them, and answer with the security headers every response carries. Requests
//! that work on a file (info, preview, files, and listings inside a file) are handed to the heavy workers,
//! which do the work through the caches of [`super::tree`] and [`super::preview`]; the request threads only
//! answer the app and the folders on disk, so those answer at once whatever else runs.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response};

use super::api::{self, Answer, Core};
use super::assets;
use super::preview::Body;
use super::request::{range, shown, Query, Range, Rejection};
use super::volume::Volume;

pub(super) struct State {
    pub(super) core: Core,
    /// `relic view --static DIR`: the files of this folder are served instead of the app and its API.
    pub(super) static_dir: Option<std::path::PathBuf>,
    addr: SocketAddr,
    allow_any_host: bool,
    pub(super) stopping: AtomicBool,
}

impl State {
    pub(super) fn new(
        volume: Arc<dyn Volume>,
        addr: SocketAddr,
        allow_any_host: bool,
        cache_bytes: usize,
        lookup: &super::Lookup,
    ) -> State {
        State {
            core: Core::new(volume, cache_bytes, lookup),
            static_dir: None,
            addr,
            allow_any_host,
            stopping: AtomicBool::new(false),
        }
    }

    /// Whether a `Host` header names the address served: `127.0.0.1:PORT`, `[::1]:PORT` or
    /// `localhost:PORT`, the port included. A host name other than `localhost` is refused even when the
    /// server listens on every address, since that is what a DNS rebinding attack sends.
    fn host_ok(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        let split = match host.strip_prefix('[') {
            Some(rest) => rest.split_once("]:"),
            None => host.rsplit_once(':'),
        };
        let Some((name, port)) = split else { return false };
        if port != self.addr.port().to_string() {
            return false;
        }
        if name == "localhost" {
            return self.addr.ip().is_loopback() || self.addr.ip().is_unspecified();
        }
        match name.parse::<IpAddr>() {
            Ok(ip) if ip == self.addr.ip() => true,
            Ok(_) => self.allow_any_host && self.addr.ip().is_unspecified(),
            Err(_) => false,
        }
    }
}

/// Whether a request works on a file (reads, lists, converts, encodes it): such requests are answered by the
/// heavy workers, so that the request threads stay free for the app and the folders' tree. A listing inside
/// a file (an archive, an archive in an archive) is such work; a folder's is not.
fn is_heavy(state: &State, target: &str) -> bool {
    if state.static_dir.is_some() {
        return false;
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match path {
        "/api/info" | "/api/preview" | "/api/file" => true,
        // A query refused here is refused at once by the request thread too.
        "/api/tree" => Query::parse(query).and_then(|q| q.path()).is_ok_and(|p| !state.core.tree.is_folder(&p)),
        _ => false,
    }
}

/// A request thread: answers requests until the server stops, handing requests that work on a file to the
/// heavy workers (a `503` when as many already wait as the queue holds).
pub(super) fn run(http: &tiny_http::Server, state: &State, heavy: &SyncSender<Request>) {
    loop {
        match http.recv() {
            Ok(request) if is_heavy(state, request.url()) => match heavy.try_send(request) {
                Ok(()) => {}
                Err(TrySendError::Full(request) | TrySendError::Disconnected(request)) => {
                    let busy = Rejection::new(503, "too many files are being worked on: try again in a moment");
                    let mut reply = Reply::error(&busy);
                    reply.headers.push(header("Retry-After", "1"));
                    send(state, request, reply);
                }
            },
            Ok(request) => answer(state, request),
            Err(_) if state.stopping.load(Ordering::SeqCst) => return,
            Err(_) => continue,
        }
    }
}

/// A heavy worker: answers the requests handed to it until the request threads are gone. The number of
/// workers bounds how many requests work on files at once.
pub(super) fn work(state: &State, queue: &Mutex<Receiver<Request>>) {
    loop {
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        match next {
            Ok(request) => answer(state, request),
            Err(_) => return,
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    // Every value put here is ASCII (file names are percent-encoded first).
    Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap_or_else(|()| {
        Header::from_bytes(&b"X-Relic-Dropped-Header"[..], name.as_bytes()).expect("an ASCII header")
    })
}

/// The app page may run its own scripts and draw blobs it made (three.js decodes a model's textures
/// through blob URLs), and nothing else.
const APP_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self' blob: data:; worker-src 'self' blob:; \
object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/// Files and API answers are data, never a page: opened on their own, they run nothing.
const DATA_POLICY: &str = "default-src 'none'; sandbox; frame-ancestors 'none'";

struct Reply {
    status: u16,
    content_type: &'static str,
    body: Body,
    headers: Vec<Header>,
    policy: &'static str,
    /// Whether a `Range` is answered (files).
    ranges: bool,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        let bytes = serde_json::to_vec(value).unwrap_or_else(|_| b"{\"error\":\"JSON output\"}".to_vec());
        Reply {
            status,
            content_type: "application/json",
            body: Body::Made(Arc::new(bytes)),
            headers: Vec::new(),
            policy: DATA_POLICY,
            ranges: false,
        }
    }

    fn error(r: &Rejection) -> Reply {
        Reply::json(r.status, &json!({"error": r.message}))
    }
}

impl From<Answer> for Reply {
    fn from(answer: Answer) -> Reply {
        let Some((file_name, download)) = answer.file else {
            return Reply {
                status: answer.status,
                content_type: answer.content_type,
                body: answer.body,
                headers: Vec::new(),
                policy: DATA_POLICY,
                ranges: false,
            };
        };
        let disposition = if download { "attachment" } else { "inline" };
        let ascii: String = file_name
            .chars()
            .map(|c| if c.is_ascii_graphic() && !matches!(c, '"' | '\\' | '/' | ';') || c == ' ' { c } else { '_' })
            .collect();
        let value = format!(
            "{disposition}; filename=\"{ascii}\"; filename*=UTF-8''{}",
            super::request::percent_encode(&file_name.replace('/', "_"))
        );
        Reply {
            status: answer.status,
            content_type: answer.content_type,
            body: answer.body,
            headers: vec![header("Content-Disposition", &value)],
            policy: DATA_POLICY,
            ranges: true,
        }
    }
}

fn answer(state: &State, request: Request) {
    let reply = route(state, &request).unwrap_or_else(|r| Reply::error(&r));
    send(state, request, reply);
}

/// Sends a reply with the headers every answer carries, the part of a file a `Range` asks for.
fn send(state: &State, request: Request, reply: Reply) {
    let peer = request.remote_addr().copied();
    let mut headers = vec![
        header("Content-Type", reply.content_type),
        header("X-Content-Type-Options", "nosniff"),
        header("Referrer-Policy", "no-referrer"),
        header("X-Frame-Options", "DENY"),
        header("Cross-Origin-Resource-Policy", "same-origin"),
        header("Cross-Origin-Opener-Policy", "same-origin"),
        header("Content-Security-Policy", reply.policy),
        header("Cache-Control", "no-store"),
    ];
    headers.extend(reply.headers);
    let len = reply.body.len();
    let (mut status, mut start, mut count) = (reply.status, 0, len);
    if reply.ranges && reply.status == 200 {
        headers.push(header("Accept-Ranges", "bytes"));
        let asked = request.headers().iter().find(|h| h.field.equiv("Range")).map(|h| h.value.as_str());
        // A conditional range is answered whole: these answers carry no validator to compare with.
        let conditional = request.headers().iter().any(|h| h.field.equiv("If-Range"));
        match asked.filter(|_| !conditional).map(|r| range(r, len)) {
            None | Some(Range::Whole) => {}
            Some(Range::Part { start: a, end: b }) => {
                (status, start, count) = (206, a, b - a);
                headers.push(header("Content-Range", &format!("bytes {a}-{}/{len}", b - 1)));
            }
            Some(Range::Unsatisfiable) => {
                let message = format!("no byte of this {len}-byte file is in the range asked for");
                let body = serde_json::to_vec(&json!({"error": message})).unwrap_or_default();
                headers[0] = header("Content-Type", "application/json");
                headers.retain(|h| !h.field.equiv("Content-Disposition"));
                headers.push(header("Content-Range", &format!("bytes */{len}")));
                let n = body.len();
                let response = Response::new(416.into(), headers, std::io::Cursor::new(body), Some(n), None);
                let _ = request.respond(response);
                return;
            }
        }
    }
    // Past this size tiny_http would send chunks, whose end marks a file cut short as complete: with a
    // `Content-Length`, a file truncated while it is sent ends the answer visibly short.
    let body = reply.body.reader(start, count);
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    let response = Response::new(status.into(), headers, body, Some(count), None).with_chunked_threshold(usize::MAX);
    // A client that went away is no error of tiny_http's (it ignores those); any other error left the
    // answer short of its `Content-Length` (a file truncated while it was sent), and a client that keeps
    // the connection alive would wait for the rest forever: the connection is ended.
    if request.respond(response).is_err() {
        if let Some(peer) = peer {
            hang_up(peer, state.addr.port());
        }
    }
}

/// Ends the connection from `peer` to this server's `port`. tiny_http has no call for it, so the socket is
/// found among the process's descriptors by its two addresses and shut down (tiny_http then sees the end
/// of the connection and closes it). Windows keeps a file that is being read from being truncated, so this
/// is for Unix only.
#[cfg(unix)]
fn hang_up(peer: SocketAddr, port: u16) {
    use std::os::fd::FromRawFd;
    let Ok(fds) = std::fs::read_dir("/proc/self/fd").or_else(|_| std::fs::read_dir("/dev/fd")) else { return };
    for fd in fds.flatten().filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok()) {
        // SAFETY: the stream is never dropped, so the descriptor (tiny_http's) is not closed here; one that
        // is not a TCP socket, or was closed meanwhile, fails the address checks.
        #[allow(unsafe_code)]
        let stream = std::mem::ManuallyDrop::new(unsafe { std::net::TcpStream::from_raw_fd(fd) });
        if stream.peer_addr().ok() == Some(peer) && stream.local_addr().is_ok_and(|a| a.port() == port) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

#[cfg(not(unix))]
fn hang_up(_peer: SocketAddr, _port: u16) {}

fn route(state: &State, request: &Request) -> Result<Reply, Rejection> {
    if !matches!(request.method(), Method::Get | Method::Head) {
        let mut reply = Reply::error(&Rejection::new(405, "only GET and HEAD are answered"));
        reply.headers.push(header("Allow", "GET, HEAD"));
        return Ok(reply);
    }
    let hosts: Vec<&str> =
        request.headers().iter().filter(|h| h.field.equiv("Host")).map(|h| h.value.as_str()).collect();
    match hosts.as_slice() {
        [host] if state.host_ok(host) => {}
        [host] => {
            return Err(Rejection::new(
                403,
                format!(
                    "refusing a request for host `{}`: this server answers {}",
                    shown(host),
                    super::url_of(state.addr)
                ),
            ))
        }
        _ => return Err(Rejection::new(403, "refusing a request without exactly one Host header")),
    }
    // A page of another site may point at this server (an <img>, a form): browsers say so.
    let fetch_site = request.headers().iter().find(|h| h.field.equiv("Sec-Fetch-Site")).map(|h| h.value.as_str());
    if fetch_site.is_some_and(|s| !matches!(s, "same-origin" | "none")) {
        return Err(Rejection::new(403, "refusing a request from another site"));
    }
    let target = request.url();
    if !target.starts_with('/') {
        return Err(Rejection::bad("the request target must be a path"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if let Some(dir) = &state.static_dir {
        return static_file(dir, path);
    }
    match path {
        "/" | "/index.html" => Ok(asset_reply(assets::INDEX)),
        _ if path.starts_with("/assets/") => {
            let file = assets::get(&path["/assets/".len()..]).ok_or_else(|| Rejection::new(404, "no such file"))?;
            Ok(asset_reply(file))
        }
        "/api/tree" | "/api/info" | "/api/preview" | "/api/file" => {
            Ok(Reply::from(api::api(&state.core, path, &Query::parse(query)?)?))
        }
        _ => Err(Rejection::new(404, format!("no endpoint `{}`", shown(path)))),
    }
}

/// What the static site may do (`relic view --static`): its own scripts and WebAssembly, blobs it made, and
/// no connection to anywhere else.
const STATIC_POLICY: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self' blob: data:; worker-src 'self' blob:; \
object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// A file of the static site's folder: the path checked as every item path is, then resolved under the
/// folder without leaving it (links included); `/` is `index.html`.
fn static_file(dir: &std::path::Path, path: &str) -> Result<Reply, Rejection> {
    let decoded = super::request::percent_decode(path.trim_start_matches('/'))?;
    let relative = if decoded.is_empty() { "index.html".to_string() } else { super::request::item_path(&decoded)? };
    let missing = || Rejection::new(404, format!("no file `{}` in the site", shown(&relative)));
    let real = std::fs::canonicalize(dir.join(&relative)).map_err(|_| missing())?;
    if !real.starts_with(dir) || !real.is_file() {
        return Err(missing());
    }
    let bytes = std::fs::read(&real).map_err(|_| missing())?;
    let extension = relative.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    let content_type = match extension.as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    Ok(Reply {
        status: 200,
        content_type,
        body: Body::Made(Arc::new(bytes)),
        headers: Vec::new(),
        policy: STATIC_POLICY,
        ranges: false,
    })
}

fn asset_reply(file: &'static assets::File) -> Reply {
    Reply {
        status: 200,
        content_type: file.content_type,
        body: Body::Made(Arc::new(file.bytes.to_vec())),
        headers: Vec::new(),
        policy: APP_POLICY,
        ranges: false,
    }
}

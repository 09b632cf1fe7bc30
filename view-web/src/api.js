// Talking to the server: every endpoint takes the item path as `path`, and answers JSON, or
// `{error}` with a 4xx/5xx status. In the static site (web mode) no server is there: a transport (the Web
// Worker running relic as WebAssembly, web/client.js) answers the same URLs with the same bytes, and what the
// page puts in the DOM (pictures, sounds, downloads) is a blob URL made from those bytes.

/** Who answers `/api/...` URLs in web mode; null in server mode, where they are fetched. */
let transport = null;

/** Sets the transport of web mode: `{get(url, signal)}` resolving to `{status, contentType, fileName, body}`. */
export function useTransport(t) {
  transport = t;
}

/** Whether the page runs without a server (the static site). */
export function webMode() {
  return transport !== null;
}

/** The URL of an endpoint for an item. */
export function apiUrl(endpoint, path, params = {}) {
  let url = `/api/${endpoint}?path=${encodeURIComponent(path)}`;
  for (const [k, v] of Object.entries(params)) url += `&${k}=${encodeURIComponent(v)}`;
  return url;
}

/** An error the server explained: its one-line message, and the rest of its answer. */
export class ServerError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** GETs JSON; a 4xx/5xx answer throws a ServerError with the server's message. */
export async function getJSON(url, signal) {
  if (transport) {
    const answer = await transport.get(url, signal);
    let body;
    try {
      body = JSON.parse(new TextDecoder().decode(answer.body));
    } catch {
      body = { error: `relic answered ${answer.status} without JSON` };
    }
    if (answer.status >= 400) throw new ServerError(body.error || `HTTP ${answer.status}`, answer.status, body);
    return body;
  }
  const response = await fetch(url, { signal });
  let body;
  try {
    body = await response.json();
  } catch {
    body = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) throw new ServerError(body.error || `HTTP ${response.status}`, response.status, body);
  return body;
}

/** GETs bytes; an error answer throws with the server's message. */
export async function getBytes(url, signal) {
  return (await getFile(url, signal)).body;
}

/** GETs a file: `{body: ArrayBuffer, contentType, fileName}` (the name of a download, when there is one). */
export async function getFile(url, signal) {
  if (transport) {
    const answer = await transport.get(url, signal);
    if (answer.status >= 400) {
      let message = `HTTP ${answer.status}`;
      try {
        message = JSON.parse(new TextDecoder().decode(answer.body)).error || message;
      } catch {
        // not JSON: keep the status
      }
      throw new ServerError(message, answer.status, {});
    }
    return { body: answer.body, contentType: answer.contentType, fileName: answer.fileName };
  }
  const response = await fetch(url, { signal });
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try {
      message = (await response.json()).error || message;
    } catch {
      // not JSON: keep the status
    }
    throw new ServerError(message, response.status, {});
  }
  const disposition = /filename\*=UTF-8''([^;]+)/i.exec(response.headers.get('Content-Disposition') || '');
  return { body: await response.arrayBuffer(), contentType: response.headers.get('Content-Type') || '',
    fileName: disposition ? decodeURIComponent(disposition[1]) : undefined };
}

/**
 * The URL to put in the DOM for a file URL (an <img>'s or <audio>'s `src`): the URL itself from a server;
 * in web mode a blob URL of the bytes the worker answers, made once per URL in `cache` (a Map) and revoked
 * by `cleanup` when the pane changes.
 */
export async function sourceOf(url, { signal, cache, cleanup }) {
  if (!transport) return url;
  if (!cache.has(url)) {
    const made = getFile(url, signal).then((file) => {
      const blob = URL.createObjectURL(new Blob([file.body], { type: file.contentType }));
      cleanup(() => URL.revokeObjectURL(blob));
      return blob;
    });
    // A failed answer is asked again next time.
    made.catch(() => cache.delete(url));
    cache.set(url, made);
  }
  return cache.get(url);
}

/**
 * Requests of which only the last one counts (a picker changed again before the first answer came, in the
 * same instant or later): each call aborts the one before and gives `{signal, stale}`, the signal of this
 * one (aborted too with `parent`, the pane's) and `stale()`, true once a later call was made, so that what a
 * superseded request gets (an answer, a picture that did not decode because its `src` changed) is dropped
 * and the last choice wins.
 */
export function lastWins(parent) {
  let seq = 0;
  let controller = null;
  return () => {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    parent?.addEventListener('abort', () => mine.abort(), { once: true });
    if (parent?.aborted) mine.abort();
    const turn = ++seq;
    return { signal: mine.signal, stale: () => turn !== seq };
  };
}

/** Saves bytes as a file named `name` (an `a[download]` of a blob URL, revoked by `cleanup`). */
export function saveBytes(body, name, type, cleanup) {
  const url = URL.createObjectURL(new Blob([body], { type: type || 'application/octet-stream' }));
  cleanup(() => URL.revokeObjectURL(url));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
}

/** A size for people. */
export function formatSize(n) {
  if (n == null) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** Creates an element: `h('div', {class: 'x', onclick: f}, child, 'text')`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c != null && c !== false) el.append(c);
  return el;
}

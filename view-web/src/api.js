// Talking to the server: every endpoint takes the item path as `path`, and answers JSON, or
// `{error}` with a 4xx/5xx status.

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
  return response.arrayBuffer();
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

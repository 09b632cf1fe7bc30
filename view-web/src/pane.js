// The preview pane (`#preview`): asks /api/preview what the item is and draws it with the view for its
// kind. `data-kind` says what is shown (image, sound, model, document, archive, folder, binary) and
// `data-state` goes loading → ready once the content is drawn, or error with relic's one-line message.
// In web mode (the static site), files shown or downloaded are blob URLs of the worker's bytes, revoked
// when the pane changes, and each item gets the web tools (web/tools.js): its conversion as a zip, and packing.

import { apiUrl, getFile, getJSON, formatSize, h, saveBytes, sourceOf, webMode } from './api.js';
import { webTools } from './web/tools.js';
import { showImages } from './views/image.js';
import { actionsOf, showActions } from './views/actions.js';
import { showSounds } from './views/sound.js';
import { showModels } from './views/model.js';
import { showDocuments } from './views/document.js';
import { showListing, showHex } from './views/listing.js';

const VIEWS = {
  image: (el, data, ctx) => {
    const images = data.assets.filter((a) => a.kind === 'image');
    // A Ragnarok ACT drawn with its sprite: an action and direction picker rather than every frame.
    const actions = data.format?.id === 'ro-act' ? actionsOf(images) : null;
    return actions ? showActions(el, actions, data, ctx) : showImages(el, images, ctx);
  },
  sound: (el, data, ctx) => showSounds(el, data.assets.filter((a) => a.kind === 'sound'), ctx),
  model: (el, data, ctx) => showModels(el, data.assets.filter((a) => a.kind === 'model'), ctx),
  document: (el, data, ctx) => showDocuments(el, data.assets.filter((a) => a.kind === 'document' || a.kind === 'text'), ctx),
  archive: (el, data, ctx) => showListing(el, data, ctx),
  folder: (el, data, ctx) => showListing(el, data, ctx),
  binary: (el, data) => showHex(el, data.hex != null ? data : (data.assets || []).find((a) => a.hex) || {}),
};

/** The kind each asset kind is shown under. */
const TAB_OF = { image: 'image', sound: 'sound', model: 'model', document: 'document', text: 'document' };

export class Pane {
  constructor(el, open) {
    this.el = el;
    /** Opens another item (a row of a listing). */
    this.open = open;
    this.token = 0;
    this.cleanups = [];
    /** Blob URLs made for file URLs while this item is shown (web mode). */
    this.sources = new Map();
  }

  reset() {
    for (const f of this.cleanups.splice(0)) {
      try {
        f();
      } catch {
        // a view that cannot clean up is gone anyway
      }
    }
    this.abort?.abort();
    this.abort = new AbortController();
    this.sources = new Map();
  }

  /** Runs `f` when the pane changes. */
  cleanup(f) {
    this.cleanups.push(f);
  }

  /** The links to an item's converted files: the server's URLs, or in web mode links saving the worker's bytes. */
  downloads(list) {
    if (!list.length) return null;
    const signal = this.abort.signal;
    const link = (d) => {
      const href = `${d.url}&download=1`;
      if (!webMode()) return h('a', { class: 'download', href, download: '', text: `⤓ ${d.label}` });
      const a = h('a', { class: 'download', href: '#', download: '', 'data-url': href, text: `⤓ ${d.label}` });
      a.addEventListener('click', async (e) => {
        e.preventDefault();
        try {
          const file = await getFile(href, signal);
          saveBytes(file.body, file.fileName || d.label, file.contentType, (f) => this.cleanup(f));
        } catch (err) {
          if (err.name !== 'AbortError') this.note(`${d.label}: ${err.message}`, true);
        }
      });
      return a;
    };
    const first = list.slice(0, 8).map(link);
    const rest = list.slice(8);
    return h('div', { class: 'downloads' }, first,
      rest.length ? h('details', {}, h('summary', { text: `${rest.length} more` }), rest.map(link)) : null);
  }

  /** A line under the item: what a download or a pack said, or (`error`) why it did not happen. */
  note(text, error = false) {
    const box = this.el.querySelector(':scope > .notes') || h('div', { class: 'notes', role: 'status' });
    if (!box.isConnected) (this.el.querySelector(':scope > .downloads') || this.el.lastElementChild).after(box);
    box.append(h('div', { class: error ? 'error' : 'note', role: error ? 'alert' : null, text }));
  }

  async show(path, hint) {
    const token = ++this.token;
    this.reset();
    const el = this.el;
    el.dataset.item = path;
    el.dataset.kind = hint?.kind || '';
    el.dataset.state = 'loading';
    el.replaceChildren(h('div', { class: 'title' }, h('h2', { text: hint?.name || path || '/' })),
      h('p', { class: 'hint', text: 'Loading…' }));
    let data;
    try {
      data = await getJSON(apiUrl('preview', path), this.abort.signal);
    } catch (err) {
      if (token === this.token && err.name !== 'AbortError') this.fail(err.message, err.body || {});
      return;
    }
    if (token !== this.token) return;
    if (data.error) {
      this.fail(data.error, data);
      return;
    }
    this.draw(data, token);
  }

  /** Header, kind tabs, content, warnings, info and downloads. */
  layout(data) {
    const el = this.el;
    const format = data.format ? `${data.format.name} (${data.format.id})` : '';
    const content = h('div', { class: 'content' });
    el.replaceChildren(...[
      h('div', { class: 'title' }, h('h2', { text: data.name }), h('span', { class: 'format', text: format }),
        data.size != null ? h('span', { class: 'size', text: formatSize(data.size) }) : null),
      h('div', { class: 'tabs' }),
      content,
      warnings(data.warnings || []),
      this.downloads(data.downloads || []),
      webMode() ? webTools(data, this) : null,
      info(data),
    ].filter(Boolean));
    return content;
  }

  async draw(data, token, kind = data.kind) {
    this.reset();
    const el = this.el;
    el.dataset.kind = kind;
    el.dataset.state = 'loading';
    const content = this.layout(data);
    // Items that convert to several kinds of thing (a sprite's frames and its JSON) get a tab per kind.
    const kinds = [...new Set((data.assets || []).map((a) => TAB_OF[a.kind]).filter(Boolean))];
    if (kinds.length > 1 || (kinds.length && !kinds.includes(data.kind) && VIEWS[data.kind])) {
      const tabs = el.querySelector('.tabs');
      const all = VIEWS[data.kind] && !kinds.includes(data.kind) ? [data.kind, ...kinds] : kinds;
      for (const k of all) {
        tabs.append(h('button', { class: k === kind ? 'tab active' : 'tab', text: k,
          onclick: () => this.draw(data, token, k) }));
      }
    }
    const signal = this.abort.signal;
    const cleanup = (f) => this.cleanups.push(f);
    const sources = this.sources;
    const ctx = { signal, cleanup, open: this.open,
      /** What to put in an <img>'s or <audio>'s `src` for a file URL (a blob URL in web mode). */
      src: (url) => sourceOf(url, { signal, cache: sources, cleanup }),
      /** Replaces the item's downloads (a view drawing the item otherwise, as a head picked over a body,
       * gives the links to what it now shows). */
      setDownloads: (list) => {
        const old = el.querySelector(':scope > .downloads');
        const now = this.downloads(list) || h('div', { class: 'downloads' });
        if (old) old.replaceWith(now);
        else el.querySelector(':scope > .content')?.after(now);
      } };
    try {
      const view = VIEWS[kind];
      if (!view) throw new Error(`relic view cannot show a ${kind}`);
      await view(content, data, ctx);
      if (token === this.token) el.dataset.state = 'ready';
    } catch (err) {
      if (token === this.token && err.name !== 'AbortError') this.fail(err.message, data);
    }
  }

  /** relic's one-line error, with whatever else is known about the item. */
  fail(message, data) {
    const el = this.el;
    if (data.kind) el.dataset.kind = data.kind;
    el.dataset.state = 'error';
    el.replaceChildren(...[
      h('div', { class: 'title' }, h('h2', { text: data.name || el.dataset.item || '/' })),
      h('div', { class: 'error', role: 'alert', text: message }),
      this.downloads(data.downloads || []),
      webMode() && data.path !== undefined ? webTools(data, this) : null,
      info(data),
    ].filter(Boolean));
  }
}

/** What the conversion warned of (a model's textures not found, and where they were looked for), as
 * `relic convert` prints them: the model is still drawn, untextured where a texture is missing. */
function warnings(list) {
  if (!list.length) return null;
  return h('ul', { class: 'warnings', role: 'status' }, list.map((w) => h('li', { text: `warning: ${w}` })));
}

function info(data) {
  const rows = [];
  const add = (k, v) => rows.push(h('tr', {}, h('th', { text: k }), h('td', { text: v })));
  if (data.path !== undefined) add('path', data.path || '/');
  if (data.format) add('format', `${data.format.name} (${data.format.id}, ${data.format.game})`);
  if (data.size != null) add('size', `${formatSize(data.size)} (${data.size} bytes)`);
  if (data.record) add('record', `${data.record.type} ${data.record.type_name || ''} id ${data.record.id}`);
  if (data.converted_from) add('converted from', data.converted_from);
  for (const [k, v] of Object.entries(data.info || {})) {
    if (k === 'format') continue;
    add(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  if (data.info_error) add('info', data.info_error);
  if (!rows.length) return null;
  return h('details', { class: 'info', open: true }, h('summary', { text: 'Info' }),
    h('table', {}, h('tbody', {}, rows)));
}

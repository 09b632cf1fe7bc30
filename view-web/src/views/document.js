// Documents as readable, searchable tables: a document's tables as they are, any other JSON flattened to
// one row per value (`units[3].name`), an INI as section / key / value, and scripts and other text as
// numbered lines. The search box keeps the rows (or lines) that contain what is typed.

import { getJSON, h } from '../api.js';

const MAX_ROWS = 2000;
const MAX_FLAT = 200000;

export async function showDocuments(el, assets, ctx) {
  if (!assets.length) throw new Error('this item has no document');
  const picker = h('select', { class: 'document-picker', 'aria-label': 'Document' },
    assets.map((a, i) => h('option', { value: String(i), text: label(a) })));
  const body = h('div', { class: 'document' });
  el.append(assets.length > 1 ? h('div', { class: 'toolbar' }, picker) : '', body);
  const load = (i) => showDocument(body, assets[i], ctx);
  picker.addEventListener('change', () => load(Number(picker.value)).catch((e) => {
    body.replaceChildren(h('div', { class: 'error', text: e.message }));
  }));
  await load(0);
}

function label(a) {
  if (a.kind === 'text') return `${a.name}.${a.extension || 'txt'}`;
  return `${a.name}.json`;
}

async function showDocument(body, asset, ctx) {
  body.replaceChildren();
  if (asset.kind === 'text') {
    const note = asset.truncated ? 'only the first MiB is shown; the download has all of it' : null;
    if (asset.extension === 'ini') {
      const rows = parseIni(asset.text);
      body.append(table(['section', 'key', 'value'], rows, `${label(asset)}`),
        h('details', { class: 'as-text' }, h('summary', { text: 'as text' }), lines(asset.text)));
    } else {
      body.append(lines(asset.text));
    }
    if (note) body.append(h('p', { class: 'hint', text: note }));
    return;
  }
  for (const t of asset.tables || []) {
    const shown = t.total > t.rows.length ? `${t.name} (first ${t.rows.length} of ${t.total} rows)` : t.name;
    body.append(table(t.columns, t.rows, shown));
  }
  if ((asset.tables || []).length) return;
  const value = await getJSON(asset.json, ctx.signal);
  const rows = [];
  flatten(value, '', rows);
  const title = rows.length >= MAX_FLAT ? `values (the first ${MAX_FLAT}; the download has all)` : 'values';
  body.append(table(['field', 'value'], rows, title));
}

/** One row per value of a JSON document: its path and its text. */
function flatten(value, path, rows) {
  if (rows.length >= MAX_FLAT) return;
  if (Array.isArray(value)) {
    if (!value.length) rows.push([path, '[]']);
    value.forEach((v, i) => flatten(v, `${path}[${i}]`, rows));
  } else if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (!keys.length) rows.push([path, '{}']);
    for (const k of keys) flatten(value[k], path ? `${path}.${k}` : k, rows);
  } else {
    rows.push([path, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
}

/** Section, key and value of each line of an INI (comments left out). */
function parseIni(text) {
  const rows = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#')) continue;
    const head = line.match(/^\[(.*)\]$/);
    if (head) {
      section = head[1];
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) rows.push([section, line, '']);
    else rows.push([section, line.slice(0, eq).trim(), line.slice(eq + 1).trim()]);
  }
  return rows;
}

/** A searchable table; at most MAX_ROWS rows are drawn at once. */
export function table(columns, rows, title) {
  const search = h('input', { type: 'search', class: 'search', placeholder: `Search ${rows.length} rows…` });
  const count = h('span', { class: 'count' });
  const tbody = h('tbody');
  const draw = () => {
    const q = search.value.trim().toLowerCase();
    const hits = q ? rows.filter((r) => r.some((c) => String(c).toLowerCase().includes(q))) : rows;
    tbody.replaceChildren(...hits.slice(0, MAX_ROWS).map((r) => h('tr', {}, r.map((c) => h('td', { text: String(c) })))));
    count.textContent = hits.length > MAX_ROWS ? `${MAX_ROWS} of ${hits.length} shown` : `${hits.length} rows`;
  };
  search.addEventListener('input', draw);
  draw();
  return h('div', { class: 'table-box' },
    h('div', { class: 'table-head' }, title ? h('h3', { text: title }) : null, search, count),
    h('div', { class: 'table-scroll' }, h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { text: c })))), tbody)));
}

/** Text as numbered lines; the search keeps the lines that contain what is typed. */
function lines(text) {
  const all = text.split(/\r?\n/);
  const search = h('input', { type: 'search', class: 'search', placeholder: `Search ${all.length} lines…` });
  const count = h('span', { class: 'count' });
  const pre = h('pre', { class: 'text' });
  const draw = () => {
    const q = search.value.trim().toLowerCase();
    const hits = [];
    all.forEach((l, i) => (!q || l.toLowerCase().includes(q)) && hits.push(`${String(i + 1).padStart(5)}  ${l}`));
    pre.textContent = hits.join('\n');
    count.textContent = q ? `${hits.length} of ${all.length} lines` : `${all.length} lines`;
  };
  search.addEventListener('input', draw);
  draw();
  return h('div', { class: 'text-box' }, h('div', { class: 'table-head' }, search, count), pre);
}

// Archives and folders: what they hold, as a table whose rows open the item (and reveal it in the tree);
// files relic has no format for: their first bytes as a hex dump.

import { formatSize, h } from '../api.js';

export async function showListing(el, data) {
  const listing = data.listing || [];
  if (data.listing_error) {
    el.append(h('div', { class: 'error', text: data.listing_error }));
    return;
  }
  const more = data.total > listing.length ? ` (the first ${listing.length} of ${data.total})` : '';
  const rows = listing.map((c) => h('tr', { class: 'link', dataset: { open: c.path } },
    h('td', { text: c.name }),
    h('td', { text: c.kind }),
    h('td', { text: c.format || '' }),
    h('td', { class: 'num', text: c.size != null ? formatSize(c.size) : '' }),
    h('td', { text: c.record ? `${c.record.type} ${c.record.type_name || ''} #${c.record.id}` : '' })));
  const body = h('tbody', {}, rows);
  body.addEventListener('click', (e) => {
    const row = e.target.closest('tr[data-open]');
    if (row) el.dispatchEvent(new CustomEvent('open-item', { bubbles: true, detail: row.dataset.open }));
  });
  el.append(h('h3', { text: `${data.total ?? listing.length} items${more}` }),
    h('div', { class: 'table-scroll' }, h('table', { class: 'data listing' },
      h('thead', {}, h('tr', {}, ['name', 'kind', 'format', 'size', 'record'].map((c) => h('th', { text: c })))), body)));
}

export async function showHex(el, data) {
  const bytes = (data.hex || '').match(/../g) || [];
  const lines = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = bytes.slice(i, i + 16);
    const text = row.map((b) => {
      const c = parseInt(b, 16);
      return c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.';
    }).join('');
    lines.push(`${i.toString(16).padStart(8, '0')}  ${row.join(' ').padEnd(47)}  ${text}`);
  }
  const note = data.size > bytes.length ? `the first ${bytes.length} of ${data.size} bytes` : `${bytes.length} bytes`;
  const what = data.extension ? `a .${data.extension} file, passed on as it is` : 'relic has no format for this file';
  el.append(h('p', { class: 'hint', text: `${what}; ${note}:` }), h('pre', { class: 'hex', text: lines.join('\n') }));
}

// The tree of items: loaded one level at a time from /api/tree when a folder or archive is opened, and
// drawn in chunks so that an archive of 17,000 entries opens at once. Each item's row carries
// `data-path` (its path relative to the root); clicking it opens the item (and expands what has children).
// The filter box shows the loaded items whose names match, with their parents.

import { apiUrl, getJSON, formatSize, h } from './api.js';

const CHUNK = 400;
/** A letter on a chip coloured by kind (style.css), so that no emoji font is needed. */
const ICONS = {
  folder: 'F', archive: 'A', image: 'I', sound: 'S', model: 'M', document: 'D', file: 'B',
};

export class Tree {
  constructor(container, onSelect) {
    this.container = container;
    this.onSelect = onSelect;
    /** path -> {item, depth, row, box, children, expanded, shown, loading} */
    this.nodes = new Map();
    this.selected = null;
    this.filter = '';
    container.addEventListener('keydown', (e) => this.key(e));
  }

  /** Loads the root level; returns the root's description. */
  async load() {
    const data = await getJSON(apiUrl('tree', ''));
    const root = { item: { path: '', name: data.root.name, kind: data.root.kind, expandable: true }, depth: -1,
      row: null, box: this.container, children: data.children, expanded: true, shown: 0 };
    this.nodes.set('', root);
    this.renderMore(root);
    return data.root;
  }

  row(item, depth) {
    const row = h('div', {
      class: 'row', role: 'treeitem', tabindex: '-1', title: item.path,
      dataset: { path: item.path, kind: item.kind },
      style: `padding-left:${0.4 + depth * 1.1}rem`,
    },
    h('span', { class: 'twisty', text: item.expandable ? '▸' : '' }),
    h('span', { class: `icon k-${ICONS[item.kind] ? item.kind : 'file'}`, text: ICONS[item.kind] || ICONS.file }),
    h('span', { class: 'name', text: item.name }),
    h('span', { class: 'meta', text: item.format || (item.size != null ? formatSize(item.size) : '') }));
    if (item.record) row.title = `${item.path}\n${item.record.type} ${item.record.type_name || ''} id ${item.record.id}`;
    row.addEventListener('click', (e) => {
      e.preventDefault();
      this.activate(item.path);
    });
    return row;
  }

  /** Draws the next chunk of a node's children (all that match while filtering). */
  renderMore(node) {
    node.box.querySelector(':scope > .more')?.remove();
    const children = node.children || [];
    const end = this.filter ? children.length : Math.min(children.length, node.shown + CHUNK);
    for (let i = node.shown; i < end; i++) this.add(children[i], node);
    node.shown = Math.max(node.shown, end);
    if (node.shown < children.length) {
      const more = h('div', { class: 'row more', style: `padding-left:${1.5 + (node.depth + 1) * 1.1}rem`,
        text: `show ${Math.min(CHUNK, children.length - node.shown)} more of ${children.length - node.shown}…`,
        onclick: () => this.renderMore(node) });
      node.box.append(more);
    }
    if (this.filter) this.applyFilter();
  }

  add(item, parent) {
    const depth = parent.depth + 1;
    const row = this.row(item, depth);
    const box = h('div', { class: 'children', role: 'group', hidden: true });
    parent.box.append(row, box);
    this.nodes.set(item.path, { item, depth, row, box, children: null, expanded: false, shown: 0 });
  }

  /** Opens an item: selects it and expands (or collapses) it. */
  async activate(path) {
    const node = this.nodes.get(path);
    if (!node) return;
    const wasSelected = this.selected === path;
    this.select(path);
    if (node.item.expandable) {
      if (node.expanded && wasSelected) this.collapse(node);
      else await this.expand(node);
    }
  }

  select(path) {
    this.nodes.get(this.selected)?.row?.classList.remove('selected');
    this.selected = path;
    const node = this.nodes.get(path);
    node?.row?.classList.add('selected');
    node?.row?.focus({ preventScroll: true });
    node?.row?.scrollIntoView({ block: 'nearest' });
    this.onSelect(path, node?.item);
  }

  async expand(node) {
    if (!node.children) {
      if (node.loading) return node.loading;
      node.row.classList.add('loading');
      node.loading = getJSON(apiUrl('tree', node.item.path)).then((data) => {
        node.children = data.children;
      }, (err) => {
        node.children = [];
        node.row.classList.add('failed');
        node.row.title = err.message;
      }).finally(() => {
        node.row.classList.remove('loading');
        node.loading = null;
      });
      await node.loading;
      this.renderMore(node);
    }
    node.expanded = true;
    node.box.hidden = false;
    node.row.classList.add('expanded');
  }

  collapse(node) {
    node.expanded = false;
    node.box.hidden = true;
    node.row.classList.remove('expanded');
  }

  /** Expands the parents of `path` (each loaded in turn) and selects it. */
  async reveal(path) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const node = this.nodes.get(parts.slice(0, i).join('/'));
      if (!node) break;
      await this.expand(node);
      // An item past the first chunk: draw until it is there.
      while (!this.nodes.has(parts.slice(0, i + 1).join('/')) && node.shown < (node.children || []).length) {
        this.renderMore(node);
      }
    }
    if (this.nodes.has(path)) this.select(path);
    else this.onSelect(path, null);
  }

  setFilter(text) {
    this.filter = text.trim().toLowerCase();
    for (const node of this.nodes.values()) if (node.children && this.filter) this.renderAll(node);
    this.applyFilter();
  }

  renderAll(node) {
    if (node.shown < node.children.length) this.renderMore(node);
  }

  /** Shows what matches the filter, and the parents of what matches; everything when it is empty. */
  applyFilter() {
    const q = this.filter;
    const visit = (node) => {
      let any = false;
      for (const child of node.children || []) {
        const sub = this.nodes.get(child.path);
        if (!sub) continue;
        const inside = sub.children ? visit(sub) : false;
        const show = !q || child.name.toLowerCase().includes(q) || child.path.toLowerCase().includes(q) || inside;
        sub.row.hidden = !show;
        if (q) sub.box.hidden = !inside;
        else sub.box.hidden = !sub.expanded;
        any = any || show;
      }
      return any;
    };
    visit(this.nodes.get(''));
  }

  /** Up/down move through visible rows, right/left expand and collapse, Enter opens. */
  key(e) {
    const rows = [...this.container.querySelectorAll('.row[data-path]')].filter((r) => r.offsetParent !== null);
    const at = rows.findIndex((r) => r.dataset.path === this.selected);
    const node = this.nodes.get(this.selected);
    if (e.key === 'ArrowDown' && at + 1 < rows.length) this.select(rows[at + 1].dataset.path);
    else if (e.key === 'ArrowUp' && at > 0) this.select(rows[at - 1].dataset.path);
    else if (e.key === 'ArrowRight' && node?.item.expandable) this.expand(node);
    else if (e.key === 'ArrowLeft' && node?.expanded) this.collapse(node);
    else if (e.key === 'Enter' && node) this.activate(node.item.path);
    else return;
    e.preventDefault();
  }
}

// relic view: the tree on the left, the preview of the selected item on the right. The selected item's
// path is kept in the address (`#/path`), so a reload or a shared link opens it again.
// The same app is the static site (`<body data-mode="web">`, web.html): there relic runs as WebAssembly in
// a Web Worker (worker.js) that answers the app's `/api/...` URLs, over the files the user opens (web/).

import { Tree } from './tree.js';
import { Pane } from './pane.js';
import { h, useTransport } from './api.js';
import { WorkerClient } from './web/client.js';
import { setUpOpening } from './web/open.js';
import { useClient } from './web/tools.js';

/** The item the address names, or null. */
const wanted = () => (location.hash.startsWith('#/') ? location.hash.slice(2).split('/').map(decodeURIComponent).join('/') : null);

/** The tree and the pane over the root (the server's, or what the worker has mounted); returns the tree. */
async function show() {
  // A fresh tree box: what was opened before goes, with its listeners.
  const old = document.getElementById('tree');
  const box = old.cloneNode(false);
  old.replaceWith(box);
  const preview = document.getElementById('preview');
  // Nothing of what was shown before (its item, its error) stays.
  Object.assign(preview.dataset, { item: '', kind: '', state: 'empty' });
  preview.replaceChildren(h('p', { class: 'hint', text: 'Pick an item on the left.' }));
  const pane = new Pane(preview, (path) => tree.reveal(path));
  const tree = new Tree(box, (path, item) => {
    const hash = `#/${path.split('/').map(encodeURIComponent).join('/')}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    pane.show(path, item);
  });
  const filter = document.getElementById('filter');
  filter.value = '';
  let pending = 0;
  filter.oninput = () => {
    clearTimeout(pending);
    pending = setTimeout(() => tree.setFilter(filter.value), 120);
  };
  current = { tree, pane };

  let root;
  try {
    root = await tree.load();
  } catch (e) {
    pane.fail(`cannot list the root: ${e.message}`, {});
    return tree;
  }
  document.getElementById('root-name').textContent = root.name;
  document.title = `${root.name} · relic view`;
  if (wanted() !== null) await tree.reveal(wanted());
  else if (!root.is_dir) pane.show('', { name: root.name, kind: root.kind });
  return tree;
}

/** What is shown now: the tree and pane the listeners below talk to. */
let current = null;

async function main() {
  document.getElementById('preview').addEventListener('open-item', (e) => current?.tree.reveal(e.detail));
  // A link to an item (or the address edited by hand) opens it.
  window.addEventListener('hashchange', () => {
    const path = wanted();
    if (current && path !== null && path !== current.tree.selected) current.tree.reveal(path);
  });
  if (document.body.dataset.mode !== 'web') {
    await show();
    return;
  }
  const client = new WorkerClient(new URL('worker.js', document.baseURI));
  useTransport(client);
  useClient(client);
  const say = setUpOpening(async ({ files, rootName }) => {
    current?.pane.reset();
    try {
      await client.call('mount', { files, rootName });
    } catch (err) {
      // Once something is open the drop zone is hidden: the pane says why this could not be opened.
      current?.pane.fail(`cannot open ${rootName}: ${err.message}`, {});
      throw err;
    }
    // What is opened now has none of the items the address named.
    history.replaceState(null, '', location.pathname + location.search);
    await show();
  });
  say('Loading relic…');
  client.ready.then(() => {
    document.body.dataset.ready = 'true';
    say('');
  }, (err) => say(err.message, true));
}

main();

// relic view: the tree on the left, the preview of the selected item on the right. The selected item's
// path is kept in the address (`#/path`), so a reload or a shared link opens it again.

import { Tree } from './tree.js';
import { Pane } from './pane.js';

async function main() {
  const pane = new Pane(document.getElementById('preview'), (path) => tree.reveal(path));
  const tree = new Tree(document.getElementById('tree'), (path, item) => {
    const hash = `#/${path.split('/').map(encodeURIComponent).join('/')}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    pane.show(path, item);
  });
  document.getElementById('preview').addEventListener('open-item', (e) => tree.reveal(e.detail));
  const filter = document.getElementById('filter');
  let pending = 0;
  filter.addEventListener('input', () => {
    clearTimeout(pending);
    pending = setTimeout(() => tree.setFilter(filter.value), 120);
  });

  let root;
  try {
    root = await tree.load();
  } catch (e) {
    pane.fail(`cannot list the root: ${e.message}`, {});
    return;
  }
  document.getElementById('root-name').textContent = root.name;
  document.title = `${root.name} · relic view`;
  const wanted = () => (location.hash.startsWith('#/') ? location.hash.slice(2).split('/').map(decodeURIComponent).join('/') : null);
  // A link to an item (or the address edited by hand) opens it.
  window.addEventListener('hashchange', () => {
    const path = wanted();
    if (path !== null && path !== tree.selected) tree.reveal(path);
  });
  if (wanted() !== null) await tree.reveal(wanted());
  else if (!root.is_dir) pane.show('', { name: root.name, kind: root.kind });
}

main();

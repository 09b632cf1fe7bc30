// The static site's tools for an item, under its preview: "Download converted (zip)" (`#zip`: the item's
// whole conversion, as `relic convert` writes it, in a zip), and for a game file (an item with a format)
// "Pack an edited file…" (`#pack-input`, or a file dropped on the preview pane): relic packs it back into
// the game file, which is saved under the name relic gives; its notes are shown, and a refusal is the
// pane's error line. Both are answered by the worker (worker.js), through `client` (set by main.js).

import { h, saveBytes } from '../api.js';

let client = null;

/** The worker client the tools ask (web/client.js). */
export function useClient(c) {
  client = c;
}

/** The tools of the item `data` (a preview answer) shown in `pane`. */
export function webTools(data, pane) {
  const path = data.path;
  if (path === undefined || !client) return null;
  const signal = pane.abort.signal;
  const cleanup = (f) => pane.cleanup(f);
  const busy = (button, on) => {
    button.disabled = on;
    pane.el.dataset.busy = on ? 'true' : '';
  };

  const zip = h('button', { id: 'zip', type: 'button', text: '⤓ Download converted (zip)',
    title: 'Everything relic convert makes of this item, in a zip' });
  zip.addEventListener('click', async () => {
    busy(zip, true);
    try {
      const r = await client.call('zip', { path }, { signal });
      saveBytes(r.body, r.fileName, 'application/zip', cleanup);
      pane.note(`saved ${r.fileName}`);
      for (const n of r.notes || []) pane.note(`note: ${n}`);
      for (const f of r.failures || []) pane.note(`not converted: ${f}`, true);
    } catch (err) {
      if (err.name !== 'AbortError') pane.note(err.message, true);
    } finally {
      busy(zip, false);
    }
  });
  const tools = h('div', { class: 'web-tools' }, zip);
  if (!data.format) return tools;

  const input = h('input', { id: 'pack-input', type: 'file', class: 'visually-hidden' });
  const pick = h('button', { type: 'button', class: 'pack-button', text: 'Pack an edited file…',
    title: `An edited PNG, JSON or glTF of this item, packed back into ${data.name} (or drop it on this pane)` });
  const pack = async (file) => {
    busy(pick, true);
    try {
      const bytes = await file.arrayBuffer();
      const r = await client.call('pack', { path, name: file.name, bytes }, { transfer: [bytes], signal });
      saveBytes(r.body, r.fileName, 'application/octet-stream', cleanup);
      // Files written beside the game file (an Evil Islands figure's .bon, .anm and .mmp).
      for (const c of r.companions || []) saveBytes(c.body, c.fileName, 'application/octet-stream', cleanup);
      const beside = (r.companions || []).map((c) => c.fileName);
      pane.note(`packed ${file.name} into ${r.fileName}${beside.length ? ` (and ${beside.join(', ')})` : ''}`);
      for (const n of r.notes || []) pane.note(`note: ${n}`);
    } catch (err) {
      if (err.name !== 'AbortError') pane.note(`cannot pack ${file.name}: ${err.message}`, true);
    } finally {
      busy(pick, false);
    }
  };
  pick.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const file = input.files[0];
    input.value = '';
    if (file) pack(file);
  });
  // A file dropped on the pane is packed into this item rather than opened (open.js takes other drops).
  const dragover = (e) => {
    if (![...(e.dataTransfer?.types || [])].includes('Files')) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer.dropEffect = 'copy';
    pane.el.classList.add('pack-target');
  };
  const dragleave = () => pane.el.classList.remove('pack-target');
  const drop = (e) => {
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    e.stopPropagation();
    document.body.classList.remove('dragging');
    pane.el.classList.remove('pack-target');
    pack(file);
  };
  pane.el.addEventListener('dragover', dragover);
  pane.el.addEventListener('dragleave', dragleave);
  pane.el.addEventListener('drop', drop);
  pane.cleanup(() => {
    pane.el.removeEventListener('dragover', dragover);
    pane.el.removeEventListener('dragleave', dragleave);
    pane.el.removeEventListener('drop', drop);
    pane.el.classList.remove('pack-target');
  });
  tools.append(pick, input);
  return tools;
}

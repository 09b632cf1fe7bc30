// Opening files in the static site: the "Open files…" and "Open folder…" buttons (the File System Access
// API's pickers where the browser has them, else the two file inputs, which stay in the page for scripts
// and tests: `#open-files` and `#open-folder`), and dropping files or folders anywhere on the page (a
// folder walked for its files). What is opened is handed on as `[{path, file}]` with '/'-separated paths
// relative to what was opened, and the name of the root: a single folder's own name is taken off its
// files' paths and names the root, so that the tree is the one `relic view FOLDER` shows.

/** `[{path, file}]` and the root's name, from what was picked or dropped (`path`s relative to the pick). */
export function rooted(picked) {
  const list = picked.filter((p) => p.path).map((p) => ({ path: p.path.replace(/^\/+/, ''), file: p.file }));
  if (!list.length) throw new Error('there is no file in what was opened');
  const top = list[0].path.split('/')[0];
  const oneFolder = list.every((p) => p.path.startsWith(`${top}/`));
  if (!oneFolder) return { files: list, rootName: list.length === 1 ? list[0].path : 'opened files' };
  return { files: list.map((p) => ({ path: p.path.slice(top.length + 1), file: p.file })), rootName: top };
}

/** The files under a directory handle (File System Access API), their paths starting with its name. */
async function walkHandle(dir, prefix, out) {
  for await (const handle of dir.values()) {
    const path = `${prefix}/${handle.name}`;
    if (handle.kind === 'directory') await walkHandle(handle, path, out);
    else out.push({ path, file: await handle.getFile() });
  }
  return out;
}

/** The files under a dropped entry (`webkitGetAsEntry`), their paths from the entry's name. */
async function walkEntry(entry, out) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ path: entry.fullPath, file });
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    // readEntries answers in batches until it answers none.
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      for (const child of batch) await walkEntry(child, out);
    }
  }
  return out;
}

/** What was dropped: folders walked, files as they are. */
async function dropped(dataTransfer) {
  // Entries must be taken while the event is dispatched; they are read afterwards.
  const entries = [];
  const loose = [];
  for (const item of dataTransfer.items || []) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else if (item.getAsFile()) loose.push({ path: item.getAsFile().name, file: item.getAsFile() });
  }
  if (!entries.length && !loose.length) {
    for (const file of dataTransfer.files || []) loose.push({ path: file.name, file });
  }
  const out = [...loose];
  for (const entry of entries) await walkEntry(entry, out);
  return out;
}

/**
 * Sets up the buttons, inputs and dropping; `open({files, rootName})` is called with each thing opened
 * (it replaces what was open). Returns `status(text, error)`, which writes on the drop zone.
 */
export function setUpOpening(open) {
  const filesInput = document.getElementById('open-files');
  const folderInput = document.getElementById('open-folder');
  const zone = document.getElementById('drop');
  const status = zone.querySelector('.status');
  const say = (text, error = false) => {
    status.textContent = text;
    status.classList.toggle('error', error);
  };
  const take = async (picked) => {
    let opened;
    try {
      opened = rooted(await picked);
    } catch (err) {
      if (err.name === 'AbortError') return; // the picker was closed
      say(err.message, true);
      return;
    }
    say(`Opening ${opened.files.length} file(s)…`);
    try {
      await open(opened);
      document.body.dataset.opened = 'true';
      say('');
    } catch (err) {
      say(err.message, true);
    }
  };

  filesInput.addEventListener('change', () => {
    take([...filesInput.files].map((file) => ({ path: file.name, file })));
    filesInput.value = '';
  });
  folderInput.addEventListener('change', () => {
    take([...folderInput.files].map((file) => ({ path: file.webkitRelativePath || file.name, file })));
    folderInput.value = '';
  });
  const pickFiles = () => {
    if (!window.showOpenFilePicker) return filesInput.click();
    return take(window.showOpenFilePicker({ multiple: true }).then((handles) =>
      Promise.all(handles.map(async (handle) => ({ path: handle.name, file: await handle.getFile() })))));
  };
  const pickFolder = () => {
    if (!window.showDirectoryPicker) return folderInput.click();
    return take(window.showDirectoryPicker().then((dir) => walkHandle(dir, dir.name, [])));
  };
  for (const b of document.querySelectorAll('.open-files-button')) b.addEventListener('click', pickFiles);
  for (const b of document.querySelectorAll('.open-folder-button')) b.addEventListener('click', pickFolder);

  // Dropping anywhere opens what is dropped (the preview pane takes a file dropped on an item to pack,
  // web/tools.js, and stops it there). The zone shows while something is dragged over the page.
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types || [])].includes('Files');
  document.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth += 1;
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) document.body.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    depth = 0;
    document.body.classList.remove('dragging');
    if (!hasFiles(e)) return;
    e.preventDefault();
    take(dropped(e.dataTransfer));
  });
  return say;
}


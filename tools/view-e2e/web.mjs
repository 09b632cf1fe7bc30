// The static site's browser test (issue 31), run by crates/relic-cli/tests/outside/web_e2e.rs, in two runs:
//
//   node tools/view-e2e/web.mjs URL OUT_DIR --samples DIR --expected DIR --server URL [--screenshot PNG]
//   node tools/view-e2e/web.mjs URL OUT_DIR --big GRF --entry PATH
//
// URL serves the built site (`relic view --static`). The first run picks the samples folder; EXPECTED is
// what the CLI wrote for the same files (see web_e2e.rs), and --server a `relic view` of the samples to
// compare the tree with. The second opens a GRF over 1 GiB (sparse) and previews its entry PATH. Files
// reach the page only through its file inputs (`#open-folder`, `#open-files`, `#pack-input`), as a user
// picks them; the page answers from relic in its worker. Checked: the tree is the server's, a texture's
// pixels, a model drawn in WebGL, a sound's duration, downloads (a PNG, an archive's zip) byte for byte
// equal to the CLI's, a pack round trip; the big GRF listed and previewed with the memory bounded; and in
// both, no request at all once the page has loaded (none to another origin ever).

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { args, start } from './lib.mjs';
import { decodePng, unzip, wavSeconds } from './files.mjs';

const usage = 'node web.mjs URL OUT_DIR (--samples DIR --expected DIR --server URL [--screenshot PNG] | --big GRF --entry PATH)';
const { url, outDir, rest } = args(usage);
const option = (name) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? rest[at + 1] : undefined;
};
const [samples, expected, serverUrl, screenshot] = ['samples', 'expected', 'server', 'screenshot'].map(option);
const [bigGrf, bigEntry] = ['big', 'entry'].map(option);
if (!(samples && expected && serverUrl) && !(bigGrf && bigEntry)) {
  console.error(`usage: ${usage}`);
  process.exit(2);
}
const { context, page, sel, pass, expect, shot, open, drawn, finish } = await start(outDir);
const origin = new URL(url).origin;

/** Every request the page (and its worker) makes, and when: before or after the page was ready. */
const requests = [];
let loaded = false;
context.on('request', (r) => requests.push({ url: r.url(), afterLoad: loaded }));

/** Clicks what starts a download and returns the file saved: `{name, bytes, path}`; fails with the pane's
 * error line when one comes instead. */
const download = async (click) => {
  const errors = page.locator('#preview .notes .error');
  const before = await errors.count();
  const refused = errors.nth(before).waitFor({ timeout: 60000 }).then(async () => {
    throw new Error(`no download: ${await errors.nth(before).textContent()}`);
  });
  const [saved] = await Promise.all([Promise.race([page.waitForEvent('download', { timeout: 60000 }), refused]), click()]);
  refused.catch(() => {});
  // Kept under the name the page gave it, as a browser saves it (packing it back goes by that name).
  const name = saved.suggestedFilename();
  const path = join(outDir, 'downloads', name);
  await saved.saveAs(path);
  return { name, bytes: readFileSync(path), path };
};

/** Drops a file (`name`, its bytes) on the element `selector`, as a file dragged from the desktop. */
const drop = async (selector, name, bytes) => {
  const dataTransfer = await page.evaluateHandle(({ name, base64 }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
    return dt;
  }, { name, base64: Buffer.from(bytes).toString('base64') });
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent(selector, type, { dataTransfer });
};

/** The files under a folder, by '/'-separated path. */
const walk = (dir, base = dir, out = new Map()) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, base, out);
    else out.set(relative(base, path).split('\\').join('/'), readFileSync(path));
  }
  return out;
};

/** The RGBA pixels of the preview's picture, drawn on a canvas. */
const picturePixels = () => page.locator('#preview img.picture').evaluate((img) => {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth;
  c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: c.width, height: c.height, rgba: [...g.getImageData(0, 0, c.width, c.height).data] };
});

try {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
  loaded = true;
  const early = requests.map((r) => new URL(r.url).pathname);
  expect(early.some((p) => p.endsWith('.wasm')), `the page loaded relic's WebAssembly (${early.join(', ')})`);
  expect(await page.locator('#drop .open-files-button').isVisible(), 'before anything is opened, the drop zone offers to open files');
  await shot('drop-zone');

  if (samples) {
    // The samples folder, picked as a folder: the tree is the one `relic view samples` shows.
    await page.locator('#open-folder').setInputFiles(samples);
    await page.locator(sel('evil_islands')).waitFor({ timeout: 60000 });
    const server = await (await fetch(new URL('/api/tree?path=', serverUrl))).json();
    const rows = await page.locator('#tree > .row[data-path]').evaluateAll((rs) => rs.map((r) => `${r.dataset.path}:${r.dataset.kind}`));
    const want = server.children.map((c) => `${c.path}:${c.kind}`);
    expect(JSON.stringify(rows) === JSON.stringify(want), `the tree's top items are the server's: ${rows.join(' ')}`);
    expect(await page.locator('#root-name').textContent() === server.root.name, `the root is named ${server.root.name}`);

    // A texture: every pixel as the CLI's PNG has it.
    await open('evil_islands/example_argb4.mmp', 'image');
    const folder = await (await fetch(new URL('/api/tree?path=evil_islands', serverUrl))).json();
    const inside = await page.locator(sel('evil_islands')).evaluate((row) =>
      [...row.nextElementSibling.querySelectorAll(':scope > .row[data-path]')].map((r) => `${r.dataset.path}:${r.dataset.kind}`));
    expect(JSON.stringify(inside) === JSON.stringify(folder.children.map((c) => `${c.path}:${c.kind}`)),
      `evil_islands lists the server's ${folder.children.length} items`);
    const cliPng = readFileSync(join(expected, 'texture/example_argb4.mmp.png'));
    const png = decodePng(cliPng);
    const shown = await picturePixels();
    expect(shown.width === png.width && shown.height === png.height, `the texture is ${shown.width}×${shown.height}`);
    let worst = 0;
    for (let i = 0; i < png.rgba.length; i += 4) {
      const a = png.rgba[i + 3];
      // A canvas keeps colours premultiplied: below full alpha, a colour comes back within rounding.
      const slack = a === 255 ? 0 : Math.ceil(255 / Math.max(a, 1));
      if (shown.rgba[i + 3] !== a) worst = Infinity;
      for (let k = 0; k < 3 && a; k++) worst = Math.max(worst, Math.abs(shown.rgba[i + k] - png.rgba[i + k]) - slack);
    }
    const opaque = Math.max(0, png.rgba.findIndex((v, i) => i % 4 === 3 && v === 255) - 3);
    const at = `${(opaque / 4) % png.width},${Math.floor(opaque / 4 / png.width)}`;
    const known = [...png.rgba.slice(opaque, opaque + 4)].join(',');
    expect(worst <= 0, `the texture's ${png.width * png.height} pixels are the CLI's PNG's (pixel ${at}: ${shown.rgba.slice(opaque, opaque + 4).join(',')}, in the PNG ${known})`);
    await shot('texture');

    // Its PNG download is the CLI's file, byte for byte, under the server's name.
    const saved = await download(() => page.locator('#preview a.download[data-url*="as=png"]').first().click());
    expect(saved.bytes.equals(cliPng), `the downloaded ${saved.name} (${saved.bytes.length} bytes) is the CLI's PNG`);
    const href = await page.locator('#preview a.download[data-url*="as=png"]').first().getAttribute('data-url');
    const disposition = (await fetch(new URL(href, serverUrl))).headers.get('Content-Disposition') || '';
    expect(disposition.includes(`''${encodeURIComponent(saved.name)}`), `it is saved as ${saved.name}, the server's name (${disposition})`);

    // Packed back: the same bytes as `relic pack ei-mmp` of that PNG, and (ARGB4, lossless) the original file.
    const packed = await download(() => page.locator('#pack-input').setInputFiles(saved.path));
    const cliPacked = readFileSync(join(expected, 'packed.mmp'));
    expect(packed.bytes.equals(cliPacked), `packing the PNG gives ${packed.name}, the bytes of \`relic pack ei-mmp\``);
    expect(packed.bytes.equals(readFileSync(join(samples, 'evil_islands/example_argb4.mmp'))), 'and the original texture, byte for byte');
    expect(packed.name === 'example_argb4.mmp', `the game file is saved as ${packed.name}`);
    const notes = await page.locator('#preview .notes').textContent();
    expect(notes.includes('example_argb4.mmp'), `the pane says what was packed: ${notes.trim()}`);
    // A file relic will not pack into it: refused on the pane's error line, the page unharmed.
    const readme = join(samples, 'ragnarok/dye.pal');
    await page.locator('#pack-input').setInputFiles(readme);
    await page.locator('#preview .notes .error').waitFor({ timeout: 30000 });
    const refusal = await page.locator('#preview .notes .error').textContent();
    expect(refusal.startsWith('cannot pack dye.pal'), `a file it cannot pack is refused: ${refusal}`);
    expect(await page.locator('#preview').getAttribute('data-state') === 'ready', 'and the preview stays');
    // Dropping the PNG on the preview pane packs it the same way.
    const onPane = await download(() => drop('#preview', saved.name, saved.bytes));
    expect(onPane.bytes.equals(cliPacked), `dropping ${saved.name} on the preview packs it into the same bytes`);

    // An archive's whole conversion as a zip: the files `relic convert` writes, each byte for byte.
    await open('evil_islands/example.res', 'archive');
    const zip = await download(() => page.locator('#zip').click());
    const members = unzip(zip.bytes);
    const cli = walk(join(expected, 'archive'));
    const names = [...members.keys()].sort();
    expect(JSON.stringify(names) === JSON.stringify([...cli.keys()].sort()), `the zip ${zip.name} holds the CLI's ${cli.size} files: ${names.join(' ')}`);
    const differ = names.filter((n) => !members.get(n).equals(cli.get(n)));
    expect(!differ.length, `each member is the CLI's file byte for byte${differ.length ? ` (not: ${differ.join(' ')})` : ''}`);

    // A model drawn in WebGL.
    await open('ragnarok/pyramid.rsm', 'model');
    await page.waitForTimeout(300);
    const pixels = await drawn();
    expect(pixels.model > 1000 && pixels.colours > 3, `the pyramid is drawn (${pixels.model} pixels off the background, ${pixels.colours} colours)`);
    await shot('model');
    if (screenshot) await page.screenshot({ path: screenshot });

    // A sound: the <audio> plays for as long as the WAV the CLI writes lasts.
    await open('dark_reign/SPRITES.FTG/BOOM.WAV', 'sound');
    const seconds = wavSeconds(readFileSync(join(expected, 'sound.wav')));
    const duration = await page.locator('#preview audio').evaluate((a) => a.duration);
    expect(Math.abs(duration - seconds) < 1e-4, `the sound lasts ${duration} s, as the WAV (${seconds.toFixed(6)} s)`);
    await shot('sound');
    // A file dropped on the page replaces what was open, and is the root itself (as `relic view FILE`).
    const dxt1 = readFileSync(join(samples, 'evil_islands/example_dxt1.mmp'));
    await drop('#tree', 'example_dxt1.mmp', dxt1);
    await page.waitForFunction(() => document.getElementById('root-name').textContent === 'example_dxt1.mmp'
      && document.getElementById('preview').dataset.state === 'ready', null, { timeout: 30000 });
    const dropped = await page.locator('#preview img.picture').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
    expect(!(await page.locator(sel('evil_islands')).count()) && dropped.join('×') === '16×16',
      `a texture dropped on the page replaces the samples and is shown (${dropped.join('×')})`);
  }

  if (bigGrf) {
    // A GRF over 1 GiB: opened (picking it again replaces the samples), listed, an entry previewed, and the
    // memory stays bounded: the file is read in slices, never whole.
    await page.locator('#open-files').setInputFiles(bigGrf);
    const top = bigEntry.split('/')[0];
    await page.waitForFunction((p) => document.querySelector(`#tree [data-path="${p}"]`)
      || document.querySelector('#preview[data-state="error"]'), top, { timeout: 120000 });
    const failed = await page.locator('#preview .error').allTextContents();
    expect(!failed.length, `the GRF is listed${failed.length ? `: ${failed.join(' ')}` : ''}`);
    const size = statSync(bigGrf).size;
    await open(bigEntry, 'image');
    const entry = await page.locator('#preview img.picture').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
    expect(entry.join('×') === '2×2', `its entry ${bigEntry} is drawn (${entry.join('×')})`);
    const heap = await (await context.newCDPSession(page)).send('Runtime.getHeapUsage');
    const worker = page.workers()[0];
    const wasmBytes = await worker.evaluate(() => self.relicMemory());
    const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`;
    expect(size > 1 << 30, `the GRF is ${size} bytes`);
    expect(heap.usedSize < 256 << 20 && wasmBytes < 256 << 20,
      `with it open, the page's JS heap is ${mib(heap.usedSize)} and relic's WebAssembly memory ${mib(wasmBytes)}`);
    await shot('big-grf');
  }

  // Nothing left the machine: no request once the page had loaded but for blobs it made, none elsewhere ever.
  const after = requests.filter((r) => r.afterLoad && !/^(blob|data):/.test(r.url)).map((r) => r.url);
  expect(!after.length, `no request after the page loaded (${requests.filter((r) => r.afterLoad).length} blob: or data: URLs)${after.length ? `: ${after.join(' ')}` : ''}`);
  const away = requests.filter((r) => !/^(blob|data):/.test(r.url) && new URL(r.url).origin !== origin).map((r) => r.url);
  expect(!away.length, `no request to another origin${away.length ? `: ${away.join(' ')}` : ''}`);
} catch (e) {
  await finish(e);
}
await finish();

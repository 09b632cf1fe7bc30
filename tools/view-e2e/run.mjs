// End-to-end test of `relic view` in headless Chromium, run by crates/relic-cli/tests/outside/view_e2e.rs:
//
//   node tools/view-e2e/run.mjs URL OUT_DIR [README_SCREENSHOT]
//
// URL is a `relic view samples` already listening. The script clicks through the page (see lib.mjs): an
// archive and its entries, a texture, sounds, models and documents, checks what is drawn (image sizes,
// WebGL pixels, audio durations, table rows), fails on any console error, and saves a screenshot of each
// step in OUT_DIR.

import { args, start } from './lib.mjs';

const { url, outDir, rest: [readmeShot] } = args('node run.mjs URL OUT_DIR [README_SCREENSHOT]');
/** The one resource that is meant to fail (the error pane is checked last). */
const MISSING = 'evil_islands/no_such_texture.mmp';
const { context, page, problems, sel, pass, expect, shot, open, drawn, finish } =
  await start(outDir, (resource) => resource.includes(MISSING));

try {
  await page.goto(url);
  await page.locator(sel('evil_islands')).waitFor();
  pass('the tree lists the samples');

  // An archive, an entry in a folder of it, and an archive in it (RES in RES).
  await open('evil_islands/example.res', 'archive');
  const listed = await page.locator('#preview table.listing tbody tr').count();
  expect(listed >= 3, `the archive's listing has ${listed} rows`);
  await open('evil_islands/example.res/readme.txt', 'document');
  const readme = await page.locator('#preview pre.text').textContent();
  expect(readme.trim().length > 0, 'an archive entry of no format is shown as text');
  await open('evil_islands/example.res/unit.bon', 'document');
  await open('evil_islands/example.res/unit.bon/body.bon', 'binary');
  await shot('archive-entry');

  // A texture: its natural size, then its mip levels.
  await open('evil_islands/example_dxt1.mmp', 'image');
  let size = await page.locator('#preview img.picture').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
  expect(size[0] === 16 && size[1] === 16, `the DXT1 texture is 16×16 (${size.join('×')})`);
  await page.locator('#preview select.frame-picker').selectOption('1');
  await page.waitForFunction(() => document.querySelector('#preview img.picture').naturalWidth === 8);
  pass('mip 1 of the texture is 8×8');
  await shot('texture');

  // A BMP inside a GRF, under a Korean folder name, shown as it is.
  await open('ragnarok/example.grf/data/texture/유저인터페이스/sample.bmp', 'image');
  size = await page.locator('#preview img.picture').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
  expect(size[0] === 2 && size[1] === 2, `the GRF's BMP is 2×2 (${size.join('×')})`);

  // Sprite frames inside an FTG, drawn with the archive's palette.
  await open('dark_reign/SPRITES.FTG/UNIT.SPR', 'image');
  const frames = await page.locator('#preview select.frame-picker option').count();
  expect(frames > 1, `the sprite has ${frames} frames to pick`);
  size = await page.locator('#preview img.picture').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
  expect(size[0] === 12 && size[1] === 9, `a sprite frame is 12×9 (${size.join('×')})`);
  await page.locator('#preview button.play').click();
  await page.waitForFunction(() => document.querySelector('#preview select.frame-picker').value !== '0');
  pass('the sprite plays');
  await page.locator('#preview button.play').click();

  // Sounds: a .wav inside an FTG, and a Drakan sound record.
  for (const path of ['dark_reign/SPRITES.FTG/BOOM.WAV', 'drakan/Sample.sdb/Ambience/3_wind.wav']) {
    await open(path, 'sound');
    const duration = await page.locator('#preview audio').evaluate((a) => a.duration);
    expect(duration > 0, `${path} plays for ${duration} s`);
  }
  await shot('sound');

  // Models: drawn in WebGL (pixels read back), with clips and morph targets.
  await open('ragnarok/pyramid.rsm', 'model');
  let pixels = await drawn();
  expect(pixels.width > 100 && pixels.colours > 3, `the pyramid is drawn (${pixels.colours} colours on ${pixels.width}×${pixels.height})`);
  expect(await page.locator('#preview select.clip-picker option').count() >= 1, 'the pyramid has an animation clip to pick');
  await shot('model');
  await open('evil_islands/unit.mod', 'model');
  pixels = await drawn();
  expect(pixels.colours > 3, `the Evil Islands figure is drawn (${pixels.colours} colours)`);
  const sliders = await page.locator('#preview .morph input[type=range]').count();
  expect(sliders === 8, `the figure has a slider for each of its 8 morph extremes (${sliders})`);
  await page.locator('#preview .morph input[type=range]').first().fill('1');
  await shot('figure');
  await open('evil_islands/isle.mp', 'model');
  pixels = await drawn();
  expect(pixels.colours > 3, `the Evil Islands terrain is drawn (${pixels.colours} colours)`);
  await shot('terrain');
  if (readmeShot) {
    // A fresh page opened on a link to the map: the tree shows the way to it, and nothing else open.
    const fresh = await context.newPage();
    fresh.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await fresh.goto(`${url}#/evil_islands/isle.mp`);
    await fresh.waitForFunction(() => document.getElementById('preview').dataset.state === 'ready');
    await fresh.waitForTimeout(300);
    await fresh.screenshot({ path: readmeShot });
    await fresh.close();
  }

  // Documents: an INI as a table with a search box, and database tables.
  await open('evil_islands/settings.reg', 'document');
  const rows = await page.locator('#preview table.data tbody tr').count();
  expect(rows >= 8, `settings.reg shows its ${rows} keys as rows`);
  await page.locator('#preview .table-box input.search').first().fill('Gamma');
  await page.waitForFunction(() => document.querySelectorAll('#preview table.data tbody tr').length === 1);
  pass('the search keeps the one matching row');
  await shot('document');
  await open('evil_islands/items.idb', 'document');
  expect(await page.locator('#preview table.data tbody tr').count() > 0, 'the database shows its tables');

  // The filter box.
  await page.locator('#filter').fill('pyramid');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#tree .row[data-path]')].filter((r) => r.offsetParent !== null);
    return rows.length > 0 && rows.every((r) => r.dataset.path.includes('pyramid') || 'ragnarok'.startsWith(r.dataset.path));
  });
  pass('the filter keeps the matching items and their folders');
  await page.locator('#filter').fill('');

  // An item that cannot be read (a link to one that is not there): relic's one-line error, not a blank pane.
  await page.evaluate((p) => { location.hash = `#/${p}`; }, MISSING);
  await page.waitForFunction((p) => {
    const el = document.getElementById('preview');
    return el.dataset.item === p && el.dataset.state === 'error';
  }, MISSING);
  const message = await page.locator('#preview .error').textContent();
  expect(message.includes('nothing at'), `the pane shows the error: ${message}`);
  await shot('error');
} catch (e) {
  await finish(e);
}
await finish();

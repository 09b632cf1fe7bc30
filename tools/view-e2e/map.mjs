// Issue 27's browser proof: a Ragnarok map opens as a scene with a toggle per layer (placed models,
// water, the walkability overlay, …) and a fly mode beside orbiting. Run by
// crates/relic-cli/tests/outside/view_e2e.rs:
//
//   node tools/view-e2e/map.mjs URL OUT_DIR MAP_PATH
//
// MAP_PATH is the tree path of an `.rsw` whose `.gnd`, `.gat` and models are found beside it. Each check
// reads the canvas back: hiding a layer changes what is drawn, showing the overlay colours the ground, and
// flying forward moves the view.

import { args, start } from './lib.mjs';

const { url, outDir, rest: [mapPath] } = args('node map.mjs URL OUT_DIR MAP_PATH');
const { page, sel, pass, expect, shot, open, drawn, finish } = await start(outDir);

/** Waits for a few frames, so that what is read back is what the render loop drew. */
const settle = () => page.evaluate(() => new Promise((done) => {
  let left = 5;
  const tick = () => (--left ? requestAnimationFrame(tick) : done());
  requestAnimationFrame(tick);
}));

/** A fingerprint of the canvas: the sum of every channel of every 3rd pixel, position-weighted. */
const fingerprint = () => page.locator('#preview canvas.gl').evaluate((c) => {
  const copy = document.createElement('canvas');
  copy.width = c.width;
  copy.height = c.height;
  const g = copy.getContext('2d');
  g.drawImage(c, 0, 0);
  const data = g.getImageData(0, 0, copy.width, copy.height).data;
  let sum = 0;
  for (let i = 0; i < data.length; i += 12) sum = (sum + data[i] * 3 + data[i + 1] * 5 + data[i + 2] * 7 + (i % 997)) % 1e12;
  return sum;
});

const toggle = async (layer, on) => {
  const box = page.locator(`#preview input.layer-${layer}`);
  if ((await box.isChecked()) !== on) await box.click();
  await settle();
};

try {
  if (!mapPath) throw new Error('no MAP_PATH given');
  await page.goto(url);
  await page.locator(sel(mapPath.split('/')[0])).waitFor();
  pass('the tree lists the map');

  await open(mapPath, 'model');
  await settle();
  const layers = await page.locator('#preview input.layer-toggle').evaluateAll((boxes) =>
    boxes.map((b) => [b.className.split(' ').find((c) => c.startsWith('layer-') && c !== 'layer-toggle').slice(6), b.checked]));
  const names = layers.map(([n]) => n);
  for (const need of ['ground', 'models', 'water', 'walkability']) {
    expect(names.includes(need), `the map has a ${need} toggle (${names.join(', ')})`);
  }
  expect(layers.every(([n, on]) => on === ['ground', 'water', 'models'].includes(n)),
    `ground, water and models start shown, the rest hidden (${JSON.stringify(layers)})`);
  const whole = await drawn();
  await shot('map');
  expect(whole.model > whole.pixels * 0.05, `the map covers ${whole.model} of ${whole.pixels} pixels`);
  const start0 = await fingerprint();

  await toggle('models', false);
  const noModels = await fingerprint();
  expect(noModels !== start0, 'hiding the placed models changes the picture');
  await shot('no-models');
  await toggle('models', true);
  expect(await fingerprint() === start0, 'showing them again restores it');

  await toggle('water', false);
  expect(await fingerprint() !== start0, 'hiding the water changes the picture');
  await toggle('water', true);

  await toggle('walkability', true);
  const overlay = await fingerprint();
  expect(overlay !== start0, 'the walkability overlay is drawn over the ground');
  await shot('walkability');
  await toggle('walkability', false);

  await toggle('ground', false);
  const noGround = await drawn();
  expect(noGround.model < whole.model, `hiding the ground uncovers the background (${noGround.model} < ${whole.model} pixels)`);
  await toggle('ground', true);

  await page.locator('#preview button.fly-toggle').click();
  expect(await page.locator('#preview button.fly-toggle').textContent() === 'orbit', 'the fly mode is on');
  await page.locator('#preview canvas.gl').focus();
  await page.keyboard.down('w');
  await page.waitForTimeout(400);
  await page.keyboard.up('w');
  await settle();
  expect(await fingerprint() !== start0, 'flying forward moves the view');
  await shot('flown');
  await page.locator('#preview button.fly-toggle').click();
  expect(await page.locator('#preview button.fly-toggle').textContent() === 'fly', 'and orbiting is back');
} catch (e) {
  await finish(e);
}
await finish();

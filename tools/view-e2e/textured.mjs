// Issue 24's browser proof: Ragnarok models are drawn with their textures, found as the client finds
// them. Run by crates/relic-cli/tests/outside/view_e2e.rs:
//
//   node tools/view-e2e/textured.mjs URL OUT_DIR [GOLDBERG_PATH…]
//
// URL is a `relic view` of the test's folder: `client/data/model/pyramid.rsm` with its texture (a plain
// orange BMP) in `client/data/texture/`, `textured.grf` holding both under `data\`, and `bare.grf` holding
// the model alone. Each textured model's canvas is read back: most of the model's pixels must carry the
// texture's orange (a lit untextured or black model has none); the bare one says which texture it lacks.
// With GOLDBERG_PATHs (a real 2.3 model from the corpus: in a GRF with its textures, and beside the GRF of
// its textures, issue 39) each model's pixels must be far from black and detailed, with no warning.

import { args, start } from './lib.mjs';

const { url, outDir, rest: goldbergs } = args('node textured.mjs URL OUT_DIR [GOLDBERG_PATH…]');
const { page, sel, pass, expect, shot, open, drawn, finish } = await start(outDir);
const ORANGE = { red: 120, redOverGreen: 30, greenOverBlue: 20 };

/** The warnings the pane shows. */
const warnings = () => page.locator('#preview .warnings li').allTextContents();

/** Waits for a few frames, so that what is read back is what the render loop drew. */
const settle = () => page.evaluate(() => new Promise((done) => {
  let left = 5;
  const tick = () => (--left ? requestAnimationFrame(tick) : done());
  requestAnimationFrame(tick);
}));

try {
  await page.goto(url);
  await page.locator(sel('client')).waitFor();
  pass('the tree lists the fixture');

  for (const [path, where] of [['client/data/model/pyramid.rsm', 'client folder'], ['textured.grf/data/model/pyramid.rsm', 'GRF']]) {
    await open(path, 'model');
    await settle();
    const px = await drawn(ORANGE);
    const name = where.replace(' ', '-');
    await shot(`textured-${name}`);
    expect(px.model > px.pixels * 0.02, `the model from its ${where} covers ${px.model} of ${px.pixels} pixels`);
    expect(px.textured > px.model * 0.5,
      `the model from its ${where} is textured: ${px.textured} of its ${px.model} pixels are the texture's orange`);
    expect(px.black < px.model * 0.1, `the model from its ${where} is not black (${px.black} near-black pixels)`);
    const warned = await warnings();
    expect(warned.length === 0, `no texture is missing for the model from its ${where} (${warned.join('; ')})`);
  }

  await open('bare.grf/data/model/pyramid.rsm', 'model');
  await settle();
  const warned = await warnings();
  expect(warned.length === 1 && warned[0].includes("texture 'data\\texture\\stone.bmp' not found"),
    `a model whose GRF lacks its texture says so: ${warned.join('; ')}`);
  const bare = await drawn(ORANGE);
  expect(bare.model > 0 && bare.textured < bare.model * 0.05, `it is drawn untextured (${bare.textured} orange pixels)`);
  await shot('untextured-warning');

  for (const goldberg of goldbergs) {
    await open(goldberg, 'model');
    await settle();
    const px = await drawn();
    await shot(`goldberg-${goldbergs.indexOf(goldberg)}`);
    expect(px.model > px.pixels * 0.02, `goldberg covers ${px.model} of ${px.pixels} pixels`);
    expect(px.black < px.model * 0.2 && px.brightness > 40,
      `goldberg is not black: ${px.black} of its ${px.model} pixels near black, mean brightness ${px.brightness.toFixed(1)}`);
    expect(px.colours > 50, `goldberg shows its textures' detail (${px.colours} colours)`);
    const missing = await warnings();
    expect(missing.length === 0, `${goldberg} finds every texture (${missing.join('; ')})`);
  }
} catch (e) {
  await finish(e);
}
await finish();

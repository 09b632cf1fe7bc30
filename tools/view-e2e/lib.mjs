// What the browser tests of `relic view` share (run.mjs over the samples, textured.mjs over Ragnarok
// models and their textures): headless Chromium (Debian's, RELIC_CHROMIUM overrides the path;
// playwright-core never downloads one), the page's contract (tree items carry `data-path`, and only they;
// `#preview` has `data-kind` and `data-state` = ready | error), checks that are counted, problems (any
// console error fails the run) and a screenshot of each step in the output folder.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** `node SCRIPT URL OUT_DIR [...rest]`: the arguments, or exit 2 with the usage. */
export function args(usage) {
  const [url, outDir, ...rest] = process.argv.slice(2);
  if (!url || !outDir) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  mkdirSync(outDir, { recursive: true });
  return { url, outDir, rest };
}

/** A browser with one page; `expectedError(url)` names the resources meant to fail. */
export async function start(outDir, expectedError = () => false) {
  const executablePath = process.env.RELIC_CHROMIUM || '/usr/bin/chromium';
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-default-apps', '--mute-audio',
      // WebGL without a GPU: SwiftShader, the CPU rasterizer Chromium ships.
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
    ],
  });
  const problems = [];
  const checks = [];
  let step = 0;
  const context = await browser.newContext({ viewport: { width: 1400, height: 860 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !expectedError(decodeURIComponent(m.location()?.url || ''))) {
      problems.push(`console error: ${m.text()} (${m.location()?.url})`);
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // An aborted request is one the page replaced itself (a picture whose `src` changed before it loaded, as
  // a picker changed twice in a row does), not a failure; anything else is.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });

  const sel = (path) => `[data-path="${path.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"]`;
  const pass = (what) => {
    checks.push(what);
    console.log(`ok: ${what}`);
  };
  const expect = (cond, what) => {
    if (!cond) throw new Error(`failed: ${what}`);
    pass(what);
  };
  const shot = async (name) => {
    step += 1;
    const file = join(outDir, `${String(step).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file });
    return file;
  };

  /** Clicks an item's row, expanding its parents first, and waits until the pane is ready (or fails). */
  const open = async (path, kind) => {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      // Locators are strict: each `data-path` must name exactly one element.
      if (await page.locator(sel(parts.slice(0, i + 1).join('/'))).count()) continue;
      await page.locator(sel(parts.slice(0, i).join('/'))).click();
      await page.locator(sel(parts.slice(0, i + 1).join('/'))).waitFor({ timeout: 15000 });
    }
    await page.locator(sel(path)).click();
    const pane = page.locator('#preview');
    await page.waitForFunction((p) => {
      const el = document.getElementById('preview');
      return el.dataset.item === p && (el.dataset.state === 'ready' || el.dataset.state === 'error');
    }, path, { timeout: 60000 });
    const state = await pane.getAttribute('data-state');
    if (state !== 'ready') {
      const message = await page.locator('#preview .error').first().textContent().catch(() => '');
      throw new Error(`${path}: the pane says ${state}: ${message}`);
    }
    const shown = await pane.getAttribute('data-kind');
    expect(shown === kind, `${path} is shown as ${kind} (data-kind=${shown})`);
    return pane;
  };

  /**
   * What the model canvas shows (its drawing buffer is preserved, so it reads back as drawn): its size, the
   * distinct colours of every 7th pixel, and of the pixels that differ from the background (the corner's
   * colour) — the model's — how many there are, how many are near black, their mean brightness (0-255),
   * and how many have the texture's hue when `hue` says it: red at least `red`, red over green by at least
   * `redOverGreen` and green over blue by `greenOverBlue` (an orange, which neither the grey background
   * nor a lit untextured surface has).
   */
  const drawn = async (hue = null) => page.locator('#preview canvas.gl').evaluate((c, want) => {
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d');
    g.drawImage(c, 0, 0);
    const data = g.getImageData(0, 0, copy.width, copy.height).data;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    const [br, bg, bb] = [data[0], data[1], data[2]];
    let model = 0;
    let black = 0;
    let textured = 0;
    let light = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, gr, b] = [data[i], data[i + 1], data[i + 2]];
      if (Math.abs(r - br) + Math.abs(gr - bg) + Math.abs(b - bb) <= 24) continue;
      model += 1;
      if (Math.max(r, gr, b) < 24) black += 1;
      if (want && r >= want.red && r - gr >= want.redOverGreen && gr - b >= want.greenOverBlue) textured += 1;
      light += (r + gr + b) / 3;
    }
    return {
      width: c.width, height: c.height, colours: colours.size, pixels: data.length / 4, model, black, textured,
      brightness: model ? light / model : 0,
    };
  }, hue);

  /** Closes the browser, prints the problems and the summary line, and exits 1 if there were any. */
  const finish = async (error) => {
    if (error) {
      problems.push(error.message.split('\n')[0]);
      await shot('failure').catch(() => {});
    }
    await browser.close();
    for (const p of problems) console.error(p);
    console.log(JSON.stringify({ checks: checks.length, problems }));
    process.exit(problems.length ? 1 : 0);
  };

  return { browser, context, page, problems, sel, pass, expect, shot, open, drawn, finish };
}

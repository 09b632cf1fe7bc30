// Issue 39's browser proof: the sprite page's pickers changed within the same instant, or again before the
// first answer came, show the last choice, never an error ("head: The source image cannot be decoded").
// Run by crates/relic-cli/tests/outside/view_e2e.rs:
//
//   node tools/view-e2e/race.mjs URL OUT_DIR
//
// URL is a `relic view` of a folder holding `body.act` (the samples' `sample.act`, `body.spr` beside it)
// and two heads, `head1.act` and `head2.act` (the same ACT with its anchors 3 and 6 pixels lower, each with
// its `.spr`), so that the body is drawn 6×7 with head 1 and 6×10 with head 2. What is shown is checked
// against the server's own answer for the last choice: the <img>'s URL is that drawing's frame URL, and its
// size that frame's. Answers are delayed by intercepting their requests (playwright's `route`).

import { args, start } from './lib.mjs';

const { url, outDir } = args('node race.mjs URL OUT_DIR');
const { page, sel, pass, expect, shot, open, finish } = await start(outDir);

/** The server's frame 0 of action `group` direction 0 for the body drawn with `head` ('' for none). */
const frameOf = (head, group = 0) => page.evaluate(async ([head, group]) => {
  const query = head ? `&with=${encodeURIComponent(head)}` : '';
  const preview = await (await fetch(`/api/preview?path=body.act${query}`)).json();
  const frame = preview.assets.find((a) => a.name === `${group}_0`).frames[0];
  return { url: frame.url, height: frame.height, width: frame.width };
}, [head, group]);

/** What the sprite page shows once its picture has loaded: URL, size, the frame counter, errors. */
const shown = async () => {
  await page.waitForFunction(() => {
    const img = document.querySelector('#preview img.picture');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  return page.evaluate(() => {
    const img = document.querySelector('#preview img.picture');
    return { src: img.getAttribute('src'), size: [img.naturalWidth, img.naturalHeight],
      counter: document.querySelector('#preview .frame-counter').textContent,
      state: document.getElementById('preview').dataset.state,
      errors: [...document.querySelectorAll('#preview .error')].map((e) => e.textContent) };
  });
};

/** Sets pickers in one task, one `change` each, before any answer can come: `[[selector, value], …]`. */
const pickAtOnce = (choices) => page.evaluate((choices) => {
  for (const [selector, value] of choices) {
    const picker = document.querySelector(selector);
    picker.value = value;
    picker.dispatchEvent(new Event('change'));
  }
}, choices);

/** Waits until the picture shown is `want` (its URL), then a while longer (past every delayed answer),
 * and checks it still is, at the frame's size, with no error. */
const settlesOn = async (want, what, linger = 2500) => {
  await page.waitForFunction((u) => document.querySelector('#preview img.picture')?.getAttribute('src') === u,
    want.url, { timeout: 20000 });
  await page.waitForTimeout(linger);
  const px = await shown();
  expect(px.src === want.url && px.size[0] === want.width && px.size[1] === want.height,
    `${what}: the last choice is shown, ${want.width}×${want.height} (${JSON.stringify(px)})`);
  expect(!px.counter.startsWith('head:') && px.errors.length === 0 && px.state === 'ready',
    `${what}: and no error (counter "${px.counter}", ${px.errors.length} errors, state ${px.state})`);
};

/** Delays the answers to requests whose URL `matches`, by `ms`; a request the page gave up meanwhile
 * (aborted: a later choice replaced it) is left as it is. */
const delay = async (matches, ms) => {
  const handler = async (route) => {
    await new Promise((done) => setTimeout(done, ms));
    try {
      await route.continue();
    } catch {
      // the page aborted it: nothing to answer
    }
  };
  const pattern = (u) => matches(decodeURIComponent(u.toString()));
  await page.route(pattern, handler);
  return () => page.unroute(pattern, handler);
};

const HEAD = '#preview select.head-picker';
const ACTION = '#preview select.action-picker';
try {
  await page.goto(url);
  await page.locator(sel('body.act')).waitFor();
  await open('body.act', 'image');
  const heads = await page.locator(`${HEAD} option`).allTextContents();
  expect(JSON.stringify(heads) === JSON.stringify(['no head', 'head1.act', 'head2.act']), `the body offers both heads (${heads})`);
  const [alone, one, two, oneAction1] = [await frameOf(''), await frameOf('head1.act'), await frameOf('head2.act'), await frameOf('head1.act', 1)];
  expect(alone.height === 4 && one.height === 7 && two.height === 10,
    `the server draws the body 6×4 alone, 6×7 with head 1, 6×10 with head 2 (${alone.height}, ${one.height}, ${two.height})`);

  // 1. Two choices of the head picker in the same instant: the second is shown.
  await pickAtOnce([[HEAD, 'head1.act'], [HEAD, 'head2.act']]);
  await settlesOn(two, 'head 1 then head 2 at once');
  await shot('race-same-instant');

  // 2. The same with the first choice's answer delayed: it comes last and is dropped.
  await pickAtOnce([[HEAD, '']]);
  await settlesOn(alone, 'no head', 300);
  let undo = await delay((u) => u.includes('/api/preview?') && u.includes('with=head1.act'), 1500);
  await pickAtOnce([[HEAD, 'head1.act'], [HEAD, 'head2.act']]);
  await settlesOn(two, 'head 1 (its answer delayed) then head 2');
  await undo();

  // 3. The last choice's answer delayed instead: it is still the one shown, once it comes.
  await pickAtOnce([[HEAD, '']]);
  await settlesOn(alone, 'no head', 300);
  undo = await delay((u) => u.includes('/api/preview?') && u.includes('with=head2.act'), 1500);
  await pickAtOnce([[HEAD, 'head2.act'], [HEAD, 'head1.act'], [HEAD, 'head2.act']]);
  await settlesOn(two, 'head 2, head 1, head 2 (the last answer delayed)');
  await undo();

  // 4. A head's picture still loading (its PNG delayed) when another head is picked: the picture that did
  // not decode because its `src` changed is no error (it was "head: The source image cannot be decoded").
  await pickAtOnce([[HEAD, '']]);
  await settlesOn(alone, 'no head', 300);
  undo = await delay((u) => u.includes('/api/file?') && u.includes('with=head1.act'), 1500);
  await pickAtOnce([[HEAD, 'head1.act']]);
  await page.waitForFunction((u) => document.querySelector('#preview img.picture')?.getAttribute('src') === u, one.url);
  await pickAtOnce([[HEAD, 'head2.act']]);
  await settlesOn(two, 'head 2 picked while head 1 was loading');
  await undo();

  // 5. Two different pickers in the same instant: the head and the action; both choices are shown.
  await pickAtOnce([[HEAD, '']]);
  await settlesOn(alone, 'no head', 300);
  await pickAtOnce([[HEAD, 'head1.act'], [ACTION, '1']]);
  await settlesOn(oneAction1, 'head 1 and action 1 at once');
  await shot('race-two-pickers');
} catch (e) {
  await finish(e);
}
await finish();

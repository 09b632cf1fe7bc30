// Issue 26's browser proof: a Ragnarok ACT is shown as its actions, with an action and a direction
// picker and frame stepping, and its SPR as frames. Run by crates/relic-cli/tests/outside/view_e2e.rs:
//
//   node tools/view-e2e/actions.mjs URL OUT_DIR
//
// URL is a `relic view` of a folder holding the samples' `sample.act` with `sprite.spr` copied beside it as
// `sample.spr`, a head (`head.act`, the same with its anchors 3 pixels lower, and `head.spr`), and
// `sprites.grf` holding the same pairs as `data\sprite\body.*` and `head.*`; the client's layout in
// `client/data/sprite/` and in the GRF: the body as `인간족/몸통/남/초보자_남`, the head as `인간족/머리통/남/1_남`
// and `2_남`, their idle south of three motions (the body's anchor 0, 1 and 2 pixels right: a turned head
// lands further right). The pixels checked are those relic's conversion draws (read from the shown <img> through a
// canvas): action 0 is one 6×4 motion, action 1 three 8×10 motions.

import { args, start } from './lib.mjs';

const { url, outDir } = args('node actions.mjs URL OUT_DIR');
const { page, sel, pass, expect, shot, open, finish } = await start(outDir);

/** The shown image: its size, frame counter, and the RGBA of pixel (x, y) (only fully opaque pixels
 * are compared, which a canvas gives back unchanged). */
const shown = async (x, y) => {
  // The picture shown once it has loaded: a picker that just changed `src` leaves it loading (not complete).
  await page.waitForFunction(() => {
    const img = document.querySelector('#preview img.picture');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  return page.locator('#preview img.picture').evaluate((img, [x, y]) => {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth;
  c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  return { size: [c.width, c.height], rgba: [...g.getImageData(x, y, 1, 1).data],
    counter: document.querySelector('#preview .frame-counter').textContent, src: img.getAttribute('src') };
  }, [x, y]);
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Issue 39: the body and the head each in a palette of their own, picked among their dyes (`data/palette/몸/`,
 * `머리/`): the body's dye reaches the body only (pixel (2, 6)), the hair dye the head only (pixel (2, 0)),
 * and every download carries both. Head 2 is picked, straight. */
const dyes = async (top, body) => {
  const bodyDyes = await page.locator('#preview select.palette-picker option').allTextContents();
  expect(same(bodyDyes, ['own palette', '초보자_남_1.pal']), `${body} offers its dye (${bodyDyes.join(', ')})`);
  const hairDyes = await page.locator('#preview select.head-palette-picker option').allTextContents();
  expect(same(hairDyes, ['head: own palette', '머리2_남_1.pal']), `head 2 offers its hair dye (${hairDyes.join(', ')})`);
  const srcHas = (part) => page.waitForFunction((p) =>
    decodeURIComponent(document.querySelector('#preview img.picture').getAttribute('src')).includes(p), part);
  await page.locator('#preview select.palette-picker').selectOption(`${top}/data/palette/몸/초보자_남_1.pal`);
  await srcHas('&palette=');
  let [head, shownBody] = [await shown(2, 0), await shown(2, 6)];
  expect(same(head.rgba, [1, 254, 0, 255]) && same(shownBody.rgba, [10, 20, 30, 255]),
    `the body's dye dyes the body only (head ${head.rgba}, body ${shownBody.rgba})`);
  await page.locator('#preview select.head-palette-picker').selectOption(`${top}/data/palette/머리/머리2_남_1.pal`);
  await srcHas('&head_palette=');
  [head, shownBody] = [await shown(2, 0), await shown(2, 6)];
  expect(same(head.rgba, [200, 100, 50, 255]) && same(shownBody.rgba, [10, 20, 30, 255]),
    `the hair dye dyes the head only (head ${head.rgba}, body ${shownBody.rgba})`);
  await page.waitForFunction(() => [...document.querySelectorAll('#preview .downloads a.download')]
    .every((a) => a.getAttribute('href').includes('&palette=') && a.getAttribute('href').includes('&head_palette=')));
  pass('every download carries both palettes');
  await shot(`act-dyes-${top.includes('grf') ? 'grf' : 'folder'}`);
  await page.locator('#preview select.palette-picker').selectOption('');
  await page.locator('#preview select.head-palette-picker').selectOption('');
  await page.waitForFunction(() => !document.querySelector('#preview img.picture').getAttribute('src').includes('palette='));
  shownBody = await shown(2, 6);
  expect(same(shownBody.rgba, [1, 254, 0, 255]), `without dyes the body is in its own palette again (${shownBody.rgba})`);
};

try {
  await page.goto(url);
  await page.locator(sel('sample.act')).waitFor();
  pass('the tree lists the pair');

  await open('sample.act', 'image');
  const actions = await page.locator('#preview select.action-picker option').allTextContents();
  expect(same(actions, ['0: action 0', '1: action 1']), `the ACT has two actions to pick (${actions.join(', ')})`);
  const directions = await page.locator('#preview select.direction-picker option').count();
  expect(directions === 8, `and eight directions (${directions})`);
  let px = await shown(2, 0);
  expect(same(px.size, [6, 4]) && same(px.rgba, [1, 254, 0, 255]) && px.counter === '1 / 1',
    `action 0 is one 6×4 motion, pixel (2, 0) green (${JSON.stringify(px)})`);
  await shot('act-idle');

  await page.locator('#preview select.action-picker').selectOption('1');
  await page.locator('#preview select.direction-picker').selectOption('3');
  await page.waitForFunction(() => document.querySelector('#preview .frame-counter').textContent === '1 / 3');
  px = await shown(3, 6);
  expect(same(px.size, [8, 10]) && same(px.rgba, [1, 254, 0, 255]) && px.src.includes('asset=12&frame=0'),
    `action 1 direction 3 shows its first of three 8×10 motions (${JSON.stringify(px)})`);

  await page.locator('#preview button.next-frame').click();
  await page.waitForFunction(() => document.querySelector('#preview .frame-counter').textContent === '2 / 3');
  px = await shown(3, 6);
  expect(same(px.rgba, [2, 253, 1, 255]) && px.src.includes('asset=12&frame=1'),
    `the next frame is motion 2, pixel (3, 6) changed (${JSON.stringify(px)})`);
  px = await shown(5, 6);
  expect(same(px.rgba, [1, 254, 0, 255]), `and pixel (5, 6) is drawn in it (${JSON.stringify(px.rgba)})`);
  await shot('act-step');
  await page.locator('#preview button.prev-frame').click();
  await page.locator('#preview button.prev-frame').click();
  await page.waitForFunction(() => document.querySelector('#preview .frame-counter').textContent === '3 / 3');
  pass('stepping back from the first motion wraps to the last');

  await page.locator('#preview button.play').click();
  await page.waitForFunction(() => document.querySelector('#preview .frame-counter').textContent === '1 / 3');
  await page.waitForFunction(() => document.querySelector('#preview .frame-counter').textContent === '2 / 3');
  pass('the action plays');
  await page.locator('#preview button.play').click();

  // A head picked among the other ACTs of the folder, then of a GRF: drawn 3 pixels above the body.
  for (const [body, head] of [['sample.act', 'head.act'], ['sprites.grf/data/sprite/body.act', 'sprites.grf/data/sprite/head.act']]) {
    await open(body, 'image');
    const heads = await page.locator('#preview select.head-picker option').allTextContents();
    expect(same(heads, ['no head', 'head.act']), `${body} offers the head (${heads.join(', ')})`);
    await page.locator('#preview select.head-picker').selectOption(head);
    await page.waitForFunction(() => document.querySelector('#preview img.picture').naturalHeight === 7);
    px = await shown(2, 6);
    const top = await shown(2, 0);
    expect(same(px.size, [6, 7]) && same(px.rgba, [1, 254, 0, 255]) && same(top.rgba, [1, 254, 0, 255])
      && decodeURIComponent(px.src).endsWith(`&with=${head}`),
      `${body} with its head is 6×7, the head above the body (${JSON.stringify(px)})`);
    await shot(`act-head-${body.includes('grf') ? 'grf' : 'folder'}`);
    await page.locator('#preview select.head-picker').selectOption('');
    await page.waitForFunction(() => document.querySelector('#preview img.picture').naturalHeight === 4);
    pass(`${body} without a head is 6×4 again`);
  }

  // The client's layout, in a folder and in a GRF: the heads of the head folder of the same sex, labelled
  // heads; picked, the downloads carry the head (what is downloaded is what is shown); a head has no picker.
  for (const top of ['client', 'sprites.grf']) {
    const body = `${top}/data/sprite/인간족/몸통/남/초보자_남.act`;
    const headDir = `${top}/data/sprite/인간족/머리통/남`;
    await open(body, 'image');
    const groups = await page.locator('#preview select.head-picker optgroup').evaluateAll(
      (gs) => gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.textContent)]));
    expect(same(groups, [['heads', ['1_남.act', '2_남.act']]]), `${body} offers the heads of 머리통/남 as heads (${JSON.stringify(groups)})`);
    const before = await page.locator('#preview .downloads a.download').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(before.length > 0 && before.every((u) => !u.includes('with=')), `${body} downloads without a head at first`);
    await page.locator('#preview select.head-picker').selectOption(`${headDir}/2_남.act`);
    await page.waitForFunction(() => document.querySelector('#preview img.picture').naturalHeight === 7);
    px = await shown(2, 0);
    expect(same(px.size, [6, 7]) && same(px.rgba, [1, 254, 0, 255]), `${body} with head 2 is 6×7 (${JSON.stringify(px)})`);
    await page.waitForFunction(() => [...document.querySelectorAll('#preview .downloads a.download')]
      .every((a) => a.getAttribute('href').includes('with=')));
    const links = await page.locator('#preview .downloads a.download').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const want = `&with=${headDir}/2_남.act`;
    expect(links.length === before.length && links.every((u) => decodeURIComponent(u).includes(want)),
      `every download carries the head (${links.length} links, ${links[1]})`);
    // The download of action 0 is the picture shown: 6×7, the head above the body.
    const size = await page.evaluate(async (u) => {
      const blob = await (await fetch(u)).blob();
      const bitmap = await createImageBitmap(blob);
      return [bitmap.width, bitmap.height];
    }, links.find((u) => u.includes('asset=1&')));
    expect(same(size, [6, 7]), `the downloaded action 0 is what is shown, 6×7 (${size})`);
    // The head turned (idle's body frame 2, its anchor 2 pixels right): 8×7, and the downloads say so.
    await page.locator('#preview select.head-direction-picker').selectOption('2');
    await page.waitForFunction(() => document.querySelector('#preview img.picture').naturalWidth === 8);
    px = await shown(4, 0);
    const before2 = await shown(2, 0);
    expect(same(px.size, [8, 7]) && same(px.rgba, [1, 254, 0, 255]) && same(before2.rgba, [0, 0, 0, 0]) && decodeURIComponent(px.src).endsWith('&head_direction=2'),
      `${body} with the head turned (direction 2) is 8×7, the head's pixel (2, 0) now at (4, 0) (${JSON.stringify(px)}, (2, 0): ${before2.rgba})`);
    await page.waitForFunction(() => [...document.querySelectorAll('#preview .downloads a.download')]
      .every((a) => a.getAttribute('href').includes('head_direction=2')));
    pass('every download carries the head direction');
    await shot(`act-client-layout-${top.includes('grf') ? 'grf' : 'folder'}`);
    await page.locator('#preview select.head-direction-picker').selectOption('0');
    await page.waitForFunction(() => document.querySelector('#preview img.picture').naturalWidth === 6);
    await dyes(top, body);
    await page.locator('#preview select.head-picker').selectOption('');
    await page.waitForFunction(() => [...document.querySelectorAll('#preview .downloads a.download')]
      .every((a) => !a.getAttribute('href').includes('with=')));
    pass(`${body} without a head downloads the body alone again`);

    await open(`${headDir}/1_남.act`, 'image');
    const pickers = await page.locator('#preview select.head-picker').count();
    expect(pickers === 0, `a head (${headDir}/1_남.act) is offered no head (${pickers} pickers)`);
  }

  // The sprite itself: its frames, one at a time, with the image view's frame picker.
  await open('sample.spr', 'image');
  const frames = await page.locator('#preview select.frame-picker option').count();
  expect(frames >= 2, `the sprite has ${frames} frames to pick`);
  const first = await page.locator('#preview img.picture').getAttribute('src');
  await page.locator('#preview select.frame-picker').selectOption('1');
  await page.waitForFunction((f) => document.querySelector('#preview img.picture').getAttribute('src') !== f, first);
  pass('picking frame 1 of the sprite shows another image');
  await shot('spr-frames');
} catch (e) {
  await finish(e);
}
await finish();

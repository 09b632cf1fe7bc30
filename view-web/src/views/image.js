// Images, textures and sprite frames: one <img> at a time (its natural size is the frame's), on a
// checkerboard for transparency, with zoom, a picker over every frame and mip level of every image the
// item converts to, and playback of animations and sprite sequences.

import { h, lastWins } from '../api.js';

export async function showImages(el, assets, ctx) {
  const frames = [];
  for (const a of assets) {
    for (const f of a.frames || []) {
      frames.push({ ...f, name: assets.length > 1 ? `${a.name} · ${f.label}` : f.label, rate: a.frame_rate });
    }
  }
  if (!frames.length) throw new Error('this item has no image');
  const animated = frames.length > 1 && !frames.every((f) => f.mip);
  const rate = frames.find((f) => f.rate)?.rate || 8;

  const img = h('img', { class: 'picture', alt: '', draggable: 'false' });
  const stage = h('div', { class: 'stage checker' }, img);
  const picker = h('select', { class: 'frame-picker', 'aria-label': 'Frame' },
    frames.map((f, i) => h('option', { value: String(i), text: `${f.name}${f.width ? ` (${f.width}×${f.height})` : ''}` })));
  const play = h('button', { class: 'play', text: '▶ play', title: `${rate} frames per second` });
  const zoomLabel = h('span', { class: 'zoom-label' });
  let zoom = 0; // 0: fit
  let index = 0;
  let timer = null;
  // The last frame picked wins: an earlier one answered later (web mode) or not decoded yet is dropped.
  const frameTurn = lastWins(ctx.signal);

  const applyZoom = () => {
    const w = img.naturalWidth || 1;
    const hgt = img.naturalHeight || 1;
    let z = zoom;
    if (!z) {
      const box = stage.getBoundingClientRect();
      z = Math.max(1, Math.floor(Math.min((box.width - 32) / w, (box.height - 32) / hgt, 16)));
    }
    img.style.width = `${w * z}px`;
    img.style.height = `${hgt * z}px`;
    zoomLabel.textContent = `${zoom ? '' : 'fit '}${z}×`;
  };
  const setZoom = (z) => {
    zoom = z;
    applyZoom();
  };
  const load = async (i) => {
    const turn = frameTurn();
    index = i;
    picker.value = String(i);
    const src = await ctx.src(frames[i].url);
    if (turn.stale()) return;
    img.src = src;
    try {
      await img.decode();
    } catch (err) {
      if (turn.stale()) return;
      throw err;
    }
    if (!turn.stale()) applyZoom();
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = '▶ play';
  };
  play.addEventListener('click', () => {
    if (timer) return stop();
    play.textContent = '❚❚ pause';
    timer = setInterval(() => load((index + 1) % frames.length).catch(stop), 1000 / rate);
  });
  picker.addEventListener('change', () => {
    stop();
    load(Number(picker.value)).catch(() => {});
  });
  ctx.cleanup(stop);
  const resize = new ResizeObserver(() => !zoom && img.naturalWidth && applyZoom());
  resize.observe(stage);
  ctx.cleanup(() => resize.disconnect());

  el.append(
    h('div', { class: 'toolbar' },
      h('button', { text: '−', title: 'Zoom out', onclick: () => setZoom(Math.max(1, (zoom || 2) - 1)) }),
      h('button', { text: '1:1', title: 'Actual size', onclick: () => setZoom(1) }),
      h('button', { text: '+', title: 'Zoom in', onclick: () => setZoom(Math.min(64, (zoom || 1) + 1)) }),
      h('button', { text: 'fit', title: 'Fit', onclick: () => setZoom(0) }),
      zoomLabel,
      frames.length > 1 ? picker : null,
      animated ? play : null),
    stage);
  try {
    await load(0);
  } catch {
    throw new Error(`the image at ${frames[0].url} did not load`);
  }
}

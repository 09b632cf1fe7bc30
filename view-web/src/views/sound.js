// Sounds: an <audio> player and the waveform (decoded by the browser's Web Audio, drawn as the
// minimum and maximum of each column), with a picker when the item holds several sounds.

import { getBytes, h } from '../api.js';

export async function showSounds(el, assets, ctx) {
  if (!assets.length) throw new Error('this item has no sound');
  const picker = h('select', { class: 'sound-picker', 'aria-label': 'Sound' },
    assets.map((a, i) => h('option', { value: String(i), text: a.name })));
  const body = h('div', { class: 'sound' });
  el.append(assets.length > 1 ? h('div', { class: 'toolbar' }, picker) : '', body);
  const load = (i) => showSound(body, assets[i], ctx);
  picker.addEventListener('change', () => load(Number(picker.value)).catch((e) => {
    body.replaceChildren(h('div', { class: 'error', text: e.message }));
  }));
  await load(0);
}

async function showSound(body, asset, ctx) {
  const audio = h('audio', { controls: true, preload: 'auto', src: await ctx.src(asset.url) });
  const canvas = h('canvas', { class: 'waveform', width: '1200', height: '240' });
  const cursor = h('div', { class: 'cursor' });
  const facts = h('p', { class: 'facts' });
  body.replaceChildren(h('div', { class: 'wave-box' }, canvas, cursor), audio, facts);
  ctx.cleanup(() => audio.pause());

  const metadata = new Promise((resolve, reject) => {
    audio.addEventListener('loadedmetadata', resolve, { once: true });
    audio.addEventListener('error', () => reject(new Error('the browser could not play this sound')), { once: true });
  });
  let frame = 0;
  const tick = () => {
    cursor.style.left = `${(audio.currentTime / (audio.duration || 1)) * 100}%`;
    frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  ctx.cleanup(() => cancelAnimationFrame(frame));
  canvas.addEventListener('click', (e) => {
    const box = canvas.getBoundingClientRect();
    if (audio.duration) audio.currentTime = ((e.clientX - box.left) / box.width) * audio.duration;
  });

  const [, waveform] = await Promise.all([metadata, drawWaveform(canvas, asset.url, ctx.signal)]);
  const parts = [`${audio.duration.toFixed(3)} s`];
  if (asset.sample_rate) parts.push(`${asset.sample_rate} Hz`, `${asset.channels} channel(s)`, `${asset.bits_per_sample}-bit`);
  if (!waveform) parts.push('no waveform: the browser could not decode it');
  facts.textContent = parts.join(' · ');
}

/** Draws the waveform; false when the browser cannot decode the sound. */
async function drawWaveform(canvas, url, signal) {
  let samples;
  try {
    const bytes = await getBytes(url, signal);
    const context = new OfflineAudioContext(1, 1, 44100);
    const decoded = await context.decodeAudioData(bytes);
    samples = decoded.getChannelData(0);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    return false;
  }
  const g = canvas.getContext('2d');
  const { width, height } = canvas;
  g.fillStyle = '#1b1e23';
  g.fillRect(0, 0, width, height);
  g.strokeStyle = '#3a3f47';
  g.beginPath();
  g.moveTo(0, height / 2);
  g.lineTo(width, height / 2);
  g.stroke();
  g.fillStyle = '#6cc4ff';
  const per = samples.length / width;
  for (let x = 0; x < width; x++) {
    const from = Math.floor(x * per);
    const to = Math.max(from + 1, Math.floor((x + 1) * per));
    let lo = 1;
    let hi = -1;
    for (let i = from; i < to && i < samples.length; i++) {
      lo = Math.min(lo, samples[i]);
      hi = Math.max(hi, samples[i]);
    }
    if (hi < lo) continue;
    const y1 = ((1 - hi) / 2) * height;
    const y2 = ((1 - lo) / 2) * height;
    g.fillRect(x, y1, 1, Math.max(1, y2 - y1));
  }
  return true;
}

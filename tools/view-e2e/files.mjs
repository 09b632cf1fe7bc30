// Readers the browser tests use to compare what the page saved with what the CLI wrote: PNG pixels
// (8-bit, not interlaced: what relic writes), a zip's members (stored or deflated, from the central
// directory), a WAV's duration. Only node:zlib; each refuses what it does not read rather than guessing.

import { inflateRawSync, inflateSync } from 'node:zlib';

/** `{width, height, rgba}` of an 8-bit, non-interlaced PNG (grey, RGB, palette, grey+alpha, RGBA). */
export function decodePng(bytes) {
  const b = Buffer.from(bytes);
  if (b.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  let at = 8;
  let head = null;
  let palette = null;
  let alphas = null;
  const data = [];
  while (at + 8 <= b.length) {
    const len = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    const body = b.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      head = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8], colour: body[9], interlace: body[12] };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') alphas = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  if (!head || head.depth !== 8 || head.interlace) throw new Error(`PNG not read here: ${JSON.stringify(head)}`);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[head.colour];
  if (!channels) throw new Error(`PNG colour type ${head.colour}`);
  const raw = inflateSync(Buffer.concat(data));
  const { width, height } = head;
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y ? pixels[(y - 1) * stride + x] : 0;
      const c = y && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += up;
      else if (filter === 3) v += (a + up) >> 1;
      else if (filter === 4) {
        const p = a + up - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - up), Math.abs(p - c)];
        v += pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      } else if (filter !== 0) throw new Error(`PNG filter ${filter}`);
      pixels[y * stride + x] = v & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const p = pixels.subarray(i * channels, (i + 1) * channels);
    let px;
    if (head.colour === 0) px = [p[0], p[0], p[0], 255];
    else if (head.colour === 2) px = [p[0], p[1], p[2], 255];
    else if (head.colour === 4) px = [p[0], p[0], p[0], p[1]];
    else if (head.colour === 6) px = [...p];
    else px = [palette[p[0] * 3], palette[p[0] * 3 + 1], palette[p[0] * 3 + 2], alphas && p[0] < alphas.length ? alphas[p[0]] : 255];
    rgba.set(px, i * 4);
  }
  return { width, height, rgba };
}

/** A zip's members: Map name -> Buffer (stored or deflated), read through its central directory. */
export function unzip(bytes) {
  const b = Buffer.from(bytes);
  let end = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('no end of central directory: not a zip');
  const count = b.readUInt16LE(end + 10);
  let at = b.readUInt32LE(end + 16);
  const members = new Map();
  for (let n = 0; n < count; n++) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`central directory entry ${n} has no signature`);
    const method = b.readUInt16LE(at + 10);
    const compressed = b.readUInt32LE(at + 20);
    const size = b.readUInt32LE(at + 24);
    const nameLength = b.readUInt16LE(at + 28);
    const extra = b.readUInt16LE(at + 30);
    const comment = b.readUInt16LE(at + 32);
    const local = b.readUInt32LE(at + 42);
    const name = b.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extra + comment;
    if (name.endsWith('/')) continue; // a folder
    if (b.readUInt32LE(local) !== 0x04034b50) throw new Error(`${name}: no local header`);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const stored = b.subarray(start, start + compressed);
    let body;
    if (method === 0) body = stored;
    else if (method === 8) body = inflateRawSync(stored);
    else throw new Error(`${name}: compression method ${method}`);
    if (body.length !== size) throw new Error(`${name}: ${body.length} bytes, the directory says ${size}`);
    members.set(name, body);
  }
  return members;
}

/** A WAV's duration in seconds: its data chunk's bytes over the format's bytes per second. */
export function wavSeconds(bytes) {
  const b = Buffer.from(bytes);
  if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not a WAV');
  let at = 12;
  let perSecond = 0;
  while (at + 8 <= b.length) {
    const id = b.toString('latin1', at, at + 4);
    const len = b.readUInt32LE(at + 4);
    if (id === 'fmt ') perSecond = b.readUInt32LE(at + 8 + 8);
    if (id === 'data') {
      if (!perSecond) throw new Error('WAV data before its format');
      return len / perSecond;
    }
    at += 8 + len + (len & 1);
  }
  throw new Error('WAV without data');
}

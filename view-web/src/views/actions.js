// Ragnarok ACT actions: relic's conversion draws each action with its sprite as `<group>_<direction>`
// (frame rate 1000 / (25 ms × delay)); this view picks an action and a direction, plays the motions at
// that rate and steps them one by one. Every motion is the conversion's own frame PNG (`/api/file …
// &frame=j`), so nothing is drawn here. A head picked among those the server offers (`heads`: the client's
// head folder beside a body's, `…/머리통/남/` for `…/몸통/남/`, labelled heads, then the other ACTs of the
// folder) asks the server for the actions drawn with it (`with=`, as `relic convert --with`); the item's
// downloads then carry the head too, so what is downloaded is what is shown. The body and the head each
// have a palette picker (`palette=`, `head_palette=`, as `relic convert --palette` and `--head-palette`):
// a hair dye dyes the head only.

import { apiUrl, getJSON, h, lastWins } from '../api.js';

/** The usual names of the groups, from roBrowser's action tables (`src/Renderer/Entity/EntityAction.js`,
 * `Init`): `TYPE_PC` IDLE 0, WALK 1, SIT 2, PICKUP 3, READYFIGHT 4, ATTACK1 5, HURT 6, FREEZE 7, DIE 8,
 * FREEZE2 9, ATTACK2 10, ATTACK3 11, SKILL 12 (13 groups of player bodies and heads); `TYPE_MOB` IDLE 0,
 * WALK 1, ATTACK 2, HURT 3, DIE 4 (5 groups); `TYPE_PET` those and SPECIAL 5, PERF1–3 6–8 (9 groups);
 * `TYPE_HOM` the monster's and ATTACK2 5, ATTACK3 6, ACTION 7 (8 groups). Other counts (effects, NPCs,
 * cursors) are numbered. */
const PLAYER = ['idle', 'walk', 'sit', 'pick up', 'ready', 'attack 1', 'hurt', 'freeze', 'dead', 'freeze 2',
  'attack 2', 'attack 3', 'cast'];
const MONSTER = ['idle', 'walk', 'attack', 'hurt', 'dead'];
const PET = [...MONSTER, 'special', 'performance 1', 'performance 2', 'performance 3'];
const HOMUNCULUS = [...MONSTER, 'attack 2', 'attack 3', 'action'];
const NAMES = { 13: PLAYER, 5: MONSTER, 9: PET, 8: HOMUNCULUS };
/** Direction 0 faces the viewer, and they turn clockwise (as seen from above) in eighths. */
const DIRECTIONS = ['south', 'south-west', 'west', 'north-west', 'north', 'north-east', 'east', 'south-east'];

const PALETTE_ROLE_LABEL = { folder: 'palettes of its folder', dye: 'its dyes (data/palette)' };

/** A palette picker: the sprite's own palette (value ''), or one of the palettes the server offers
 * (`{name, path, role}`, grouped by role). `offer(list, total)` replaces the list, keeping the choice when it
 * is still offered; the picker is hidden while there is none. */
function palettePicker(cls, label, ownText) {
  const picker = h('select', { class: cls, 'aria-label': label, hidden: true });
  picker.offer = (list, total) => {
    const kept = picker.value;
    const byRole = new Map();
    for (const p of list) {
      if (!byRole.has(p.role)) byRole.set(p.role, []);
      byRole.get(p.role).push(h('option', { value: p.path, text: p.name }));
    }
    // replaceChildren takes nodes, not arrays: the groups are spread.
    picker.replaceChildren(h('option', { value: '', text: ownText }),
      ...[...byRole].map(([role, options]) => h('optgroup', { label: PALETTE_ROLE_LABEL[role] || role }, options)),
      ...(total > list.length ? [h('option', { disabled: true, value: '-', text: `(the first ${list.length} of ${total})` })] : []));
    picker.value = list.some((p) => p.path === kept) ? kept : '';
    picker.hidden = !list.length;
  };
  return picker;
}

/** The actions among the assets, by group and direction, or null when they are not named that way. */
export function actionsOf(assets) {
  const groups = new Map();
  for (const a of assets) {
    const m = /^(\d+)_([0-7])$/.exec(a.name);
    if (!m || a.kind !== 'image' || !a.frames?.length) continue;
    const g = Number(m[1]);
    if (!groups.has(g)) groups.set(g, new Map());
    groups.get(g).set(Number(m[2]), a);
  }
  return groups.size ? groups : null;
}

export async function showActions(el, groups, data, ctx) {
  const count = Math.max(...groups.keys()) + 1;
  const names = NAMES[count] || [];
  const actionPicker = h('select', { class: 'action-picker', 'aria-label': 'Action' },
    [...groups.keys()].sort((a, b) => a - b).map((g) =>
      h('option', { value: String(g), text: `${g}: ${names[g] || `action ${g}`}` })));
  const directionPicker = h('select', { class: 'direction-picker', 'aria-label': 'Direction' },
    DIRECTIONS.map((d, i) => h('option', { value: String(i), text: `${i}: ${d}` })));
  // An ACT that is itself a head (in a head folder) is offered none.
  const heads = data.act_role === 'head' ? [] : data.heads || [];
  const ROLE_LABEL = { head: 'heads', body: 'other bodies of this folder', act: 'other ACTs of this folder (not known to be heads)' };
  const byRole = new Map();
  for (const hd of heads) {
    if (!byRole.has(hd.role)) byRole.set(hd.role, []);
    byRole.get(hd.role).push(h('option', { value: hd.path, text: hd.name, 'data-role': hd.role || '' }));
  }
  const headPicker = h('select', { class: 'head-picker', 'aria-label': 'Head', title: data.heads_note || '' },
    h('option', { value: '', text: 'no head' }),
    [...byRole].map(([role, options]) => h('optgroup', { label: ROLE_LABEL[role] || role || 'ACTs' }, options)),
    data.heads_total > heads.length
      ? h('option', { disabled: true, value: '-', text: `(the first ${heads.length} of ${data.heads_total})` }) : null);
  const img = h('img', { class: 'picture', alt: '', draggable: 'false' });
  const stage = h('div', { class: 'stage checker' }, img);
  const play = h('button', { class: 'play', text: '▶ play' });
  const prev = h('button', { class: 'prev-frame', text: '◀', title: 'Previous frame' });
  const next = h('button', { class: 'next-frame', text: '▶|', title: 'Next frame' });
  const counter = h('span', { class: 'frame-counter' });
  const zoomLabel = h('span', { class: 'zoom-label' });
  let zoom = 0; // 0: fit
  let action = null;
  let index = 0;
  let timer = null;
  // The last picture asked for and the last drawing asked of the server win (see `lastWins`).
  const frameTurn = lastWins(ctx.signal);
  const drawTurn = lastWins(ctx.signal);

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
  const load = async (i) => {
    const turn = frameTurn();
    const frames = action.frames;
    index = ((i % frames.length) + frames.length) % frames.length;
    counter.textContent = `${index + 1} / ${frames.length}`;
    img.dataset.frame = String(index);
    const src = await ctx.src(frames[index].url);
    if (turn.stale()) return;
    img.src = src;
    try {
      await img.decode();
    } catch (err) {
      // A later picture replaced this one before it decoded: not an error of what is shown.
      if (turn.stale()) return;
      throw err;
    }
    if (!turn.stale()) applyZoom();
  };
  const stop = () => {
    clearTimeout(timer);
    timer = null;
    play.textContent = '▶ play';
  };
  const tick = () => {
    // One motion each 25 ms × delay: the conversion's frame rate.
    timer = setTimeout(() => load(index + 1).then(() => timer && tick(), stop), 1000 / (action.frame_rate || 10));
  };
  /** Shows the picked action and direction (a direction the group lacks shows its first). */
  const pick = async () => {
    stop();
    const group = groups.get(Number(actionPicker.value));
    action = group.get(Number(directionPicker.value)) || group.values().next().value;
    const many = action.frames.length > 1;
    play.disabled = prev.disabled = next.disabled = !many;
    play.title = action.frame_rate ? `${action.frame_rate.toFixed(2)} frames per second` : '';
    await load(0);
  };
  play.addEventListener('click', () => {
    if (timer) return stop();
    play.textContent = '❚❚ pause';
    tick();
  });
  prev.addEventListener('click', () => { stop(); load(index - 1).catch(() => {}); });
  next.addEventListener('click', () => { stop(); load(index + 1).catch(() => {}); });
  actionPicker.addEventListener('change', () => pick().catch(() => {}));
  directionPicker.addEventListener('change', () => pick().catch(() => {}));
  // How the head looks in idle and sit (the client's head directions; `head_direction=`, as `relic convert
  // --option ro-act.head-direction`): shown while a head is picked.
  const turnPicker = h('select', { class: 'head-direction-picker', 'aria-label': 'Head direction',
    title: 'The head in idle and sit: straight, turned, or the three in turn', hidden: true },
  [['0', 'head straight'], ['1', 'head turned 1'], ['2', 'head turned 2'], ['all', 'head: all three']]
    .map(([value, text]) => h('option', { value, text })));
  const bodyPalette = palettePicker('palette-picker', 'Palette', 'own palette');
  bodyPalette.offer(data.palettes || [], data.palettes_total || 0);
  const headPalette = palettePicker('head-palette-picker', 'Head palette', 'head: own palette');
  /** The palettes picked, as the query asks for them. */
  const paletteQuery = (head) => ({
    ...(bodyPalette.value ? { palette: bodyPalette.value } : {}),
    ...(head && headPalette.value ? { head_palette: headPalette.value } : {}),
  });
  const redraw = async () => {
    stop();
    const turn = drawTurn();
    const head = headPicker.value;
    turnPicker.hidden = !head;
    const query = head ? { with: head, ...(turnPicker.value !== '0' ? { head_direction: turnPicker.value } : {}) } : {};
    Object.assign(query, paletteQuery(head));
    try {
      const drawn = await getJSON(apiUrl('preview', data.path, query), turn.signal);
      // Another choice was made meanwhile: its drawing is shown, not this one.
      if (turn.stale()) return;
      groups = actionsOf(drawn.assets.filter((a) => a.kind === 'image')) || groups;
      // The downloads of what is shown now: the server's URLs carry `with=` while a head is picked.
      ctx.setDownloads?.(drawn.downloads || []);
      headPalette.offer(head ? drawn.head_palettes || [] : [], drawn.head_palettes_total || 0);
      await pick();
    } catch (err) {
      if (err.name !== 'AbortError' && !turn.stale()) counter.textContent = `head: ${err.message}`;
    }
  };
  headPicker.addEventListener('change', redraw);
  turnPicker.addEventListener('change', redraw);
  bodyPalette.addEventListener('change', redraw);
  headPalette.addEventListener('change', redraw);
  ctx.cleanup(stop);
  const resize = new ResizeObserver(() => !zoom && img.naturalWidth && applyZoom());
  resize.observe(stage);
  ctx.cleanup(() => resize.disconnect());

  const setZoom = (z) => { zoom = z; applyZoom(); };
  el.append(
    h('div', { class: 'toolbar' },
      h('button', { text: '−', title: 'Zoom out', onclick: () => setZoom(Math.max(1, (zoom || 2) - 1)) }),
      h('button', { text: '1:1', title: 'Actual size', onclick: () => setZoom(1) }),
      h('button', { text: '+', title: 'Zoom in', onclick: () => setZoom(Math.min(64, (zoom || 1) + 1)) }),
      h('button', { text: 'fit', title: 'Fit', onclick: () => setZoom(0) }),
      zoomLabel, heads.length ? headPicker : null, heads.length ? turnPicker : null,
      bodyPalette, headPalette, actionPicker, directionPicker, prev, counter, next, play),
    stage);
  try {
    await pick();
  } catch {
    throw new Error(`the action at ${action?.frames[0]?.url} did not load`);
  }
}

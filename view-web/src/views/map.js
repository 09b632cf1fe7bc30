// Ragnarok maps (`relic convert x.rsw`): the GLB's root nodes are the map's layers, named `ground`,
// `water`, `models`, `lights`, `sounds`, `effects` and `walkability` (the GAT overlay). This adds a toggle
// per layer, markers for the lights, sounds and effects (empty nodes, or lights that would each cost the
// shader a uniform: a map has hundreds), and a fly mode beside the orbit controls: drag to look, W A S D
// to move, Q and E (or Space and C) down and up, Shift faster.

import * as THREE from 'three';
import { h } from '../api.js';

/** The layers of a map, in toggle order, and whether each starts shown. */
const LAYERS = [
  ['ground', true], ['water', true], ['models', true], ['walkability', false],
  ['lights', false], ['sounds', false], ['effects', false],
];
const MARKER_COLOURS = { lights: 0xffd24a, sounds: 0x4ab0ff, effects: 0xff4ad2 };

/** The map layers among a glTF scene's root nodes, or null when the scene is not a map. */
export function mapLayers(root) {
  const layers = new Map();
  for (const child of root.children) {
    if (LAYERS.some(([name]) => name === child.name)) layers.set(child.name, child);
  }
  return layers.has('ground') ? layers : null;
}

/**
 * Sets the map up in the viewer: layer toggles and the fly mode in `bar`. `size` is the length of the
 * map's bounding box (for marker sizes and the flying speed). Returns `{ update(dt), dispose() }`; while
 * flying, `update` moves the camera and the orbit controls are off.
 */
export function setUpMap(layers, { bar, camera, orbit, canvas, size }) {
  // Markers for points: the punctual lights are replaced by a small sphere each (the ground's lightmaps
  // already carry their light), empty sound and effect nodes get one too.
  const markerSize = Math.max(size / 400, 0.5);
  const geometry = new THREE.SphereGeometry(markerSize, 8, 6);
  const materials = [];
  for (const [layer, colour] of Object.entries(MARKER_COLOURS)) {
    const group = layers.get(layer);
    if (!group) continue;
    const material = new THREE.MeshBasicMaterial({ color: colour });
    materials.push(material);
    const points = [];
    group.traverse((o) => { if (o !== group && o.children.every((c) => c.isLight)) points.push(o); });
    for (const o of points) {
      const marker = new THREE.Mesh(geometry, material);
      if (o.isLight) {
        // A light-only node is the light itself: a marker takes its place.
        marker.name = o.name;
        marker.position.copy(o.position);
        o.parent?.add(marker);
        o.removeFromParent();
      } else {
        for (const light of o.children.filter((c) => c.isLight)) o.remove(light);
        o.add(marker);
      }
    }
  }
  // Lights left anywhere else in the map (a model's own) go too, for the same reason.
  for (const group of layers.values()) group.traverse((o) => { if (o.isLight) o.visible = false; });

  for (const [name, shown] of LAYERS) {
    const group = layers.get(name);
    if (!group) continue;
    group.visible = shown;
    const box = h('input', { type: 'checkbox', class: `layer-toggle layer-${name}` });
    box.checked = shown;
    box.addEventListener('change', () => { group.visible = box.checked; });
    bar.append(h('label', { class: 'layer', title: `Show the map's ${name}` }, box, ` ${name}`));
  }

  // Fly mode.
  const flyButton = h('button', { class: 'fly-toggle', text: 'fly', title: 'Fly: drag to look, W A S D to move, Q/E down/up, Shift faster' });
  bar.append(flyButton);
  let flying = false;
  const keys = new Set();
  const look = new THREE.Euler(0, 0, 0, 'YXZ');
  let drag = null;
  const onKey = (down) => (e) => {
    if (!flying) return;
    const k = e.key.toLowerCase();
    if (['w', 'a', 's', 'd', 'q', 'e', ' ', 'c', 'shift', 'arrowup', 'arrowdown', 'arrowleft', 'arrowright'].includes(k)) {
      e.preventDefault();
      if (down) keys.add(k); else keys.delete(k);
    }
  };
  const keyDown = onKey(true);
  const keyUp = onKey(false);
  const pointerDown = (e) => {
    if (!flying) return;
    drag = { x: e.clientX, y: e.clientY };
    canvas.setPointerCapture?.(e.pointerId);
  };
  const pointerMove = (e) => {
    if (!flying || !drag) return;
    look.y -= (e.clientX - drag.x) * 0.004;
    look.x = Math.max(-1.55, Math.min(1.55, look.x - (e.clientY - drag.y) * 0.004));
    drag = { x: e.clientX, y: e.clientY };
    camera.quaternion.setFromEuler(look);
  };
  const pointerUp = () => { drag = null; };
  canvas.tabIndex = 0;
  canvas.addEventListener('keydown', keyDown);
  canvas.addEventListener('keyup', keyUp);
  canvas.addEventListener('pointerdown', pointerDown);
  canvas.addEventListener('pointermove', pointerMove);
  canvas.addEventListener('pointerup', pointerUp);
  flyButton.addEventListener('click', () => {
    flying = !flying;
    keys.clear();
    orbit.enabled = !flying;
    flyButton.classList.toggle('active', flying);
    flyButton.textContent = flying ? 'orbit' : 'fly';
    if (flying) {
      look.setFromQuaternion(camera.quaternion, 'YXZ');
      canvas.focus();
    } else {
      // Back to orbiting around the point the camera looks at, at the same distance as before.
      const distance = camera.position.distanceTo(orbit.target);
      orbit.target.copy(camera.position).add(new THREE.Vector3(0, 0, -distance).applyQuaternion(camera.quaternion));
      orbit.update();
    }
  });

  const move = new THREE.Vector3();
  return {
    get flying() { return flying; },
    update(dt) {
      if (!flying || !keys.size) return;
      const speed = (size / 8) * (keys.has('shift') ? 4 : 1) * Math.min(dt, 0.1);
      move.set(
        (keys.has('d') || keys.has('arrowright') ? 1 : 0) - (keys.has('a') || keys.has('arrowleft') ? 1 : 0),
        (keys.has('e') || keys.has(' ') ? 1 : 0) - (keys.has('q') || keys.has('c') ? 1 : 0),
        (keys.has('s') || keys.has('arrowdown') ? 1 : 0) - (keys.has('w') || keys.has('arrowup') ? 1 : 0),
      );
      if (!move.lengthSq()) return;
      // Forward and sideways follow the view; up and down stay vertical.
      const vertical = move.y;
      move.y = 0;
      move.applyQuaternion(camera.quaternion);
      move.y += vertical;
      camera.position.addScaledVector(move.normalize(), speed);
    },
    dispose() {
      canvas.removeEventListener('keydown', keyDown);
      canvas.removeEventListener('keyup', keyUp);
      canvas.removeEventListener('pointerdown', pointerDown);
      canvas.removeEventListener('pointermove', pointerMove);
      canvas.removeEventListener('pointerup', pointerUp);
      geometry.dispose();
      for (const m of materials) m.dispose();
    },
  };
}

// Models and terrain: the GLB relic converts the item to, drawn by three.js in a <canvas> with orbit
// controls, a clip picker with play/pause for its animations, and a slider per morph target (the eight
// extremes of an Evil Islands figure), named from the glTF's `extras.targetNames`.
// A Ragnarok map adds layer toggles and a fly mode (map.js).

import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { getBytes, h } from '../api.js';
import { mapLayers, setUpMap } from './map.js';

export async function showModels(el, assets, ctx) {
  if (!assets.length) throw new Error('this item has no model');
  const picker = h('select', { class: 'model-picker', 'aria-label': 'Model' },
    assets.map((a, i) => h('option', { value: String(i), text: a.name })));
  const body = h('div', { class: 'model' });
  el.append(assets.length > 1 ? h('div', { class: 'toolbar' }, picker) : '', body);
  let dispose = null;
  const load = async (i) => {
    dispose?.();
    dispose = await showModel(body, assets[i], ctx);
  };
  ctx.cleanup(() => dispose?.());
  picker.addEventListener('change', () => load(Number(picker.value)).catch((e) => {
    body.replaceChildren(h('div', { class: 'error', text: e.message }));
  }));
  await load(0);
}

async function showModel(body, asset, ctx) {
  const canvas = h('canvas', { class: 'gl' });
  const stage = h('div', { class: 'stage gl-stage' }, canvas);
  const controlsBar = h('div', { class: 'toolbar' });
  const morphs = h('div', { class: 'morphs' });
  body.replaceChildren(controlsBar, stage, morphs);

  let renderer;
  try {
    // The drawing buffer is kept so that a screenshot (or a test) can read what was drawn.
    renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  } catch (e) {
    throw new Error(`WebGL is not available in this browser (${e.message})`);
  }
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2b2f36);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x30343c, 0.9));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(3, 5, 4);
  const fill = new THREE.DirectionalLight(0xb0c4ff, 0.5);
  fill.position.set(-4, 2, -3);
  scene.add(sun, fill);
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = true;

  const bytes = await getBytes(asset.url, ctx.signal);
  const gltf = await new GLTFLoader().parseAsync(bytes, '');
  const model = gltf.scene;
  scene.add(model);

  // Frame the model: the camera looks at its centre from far enough to see all of it.
  const box = new THREE.Box3().setFromObject(model);
  const size = box.isEmpty() ? 1 : box.getSize(new THREE.Vector3()).length() || 1;
  const centre = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
  camera.near = size / 1000;
  camera.far = size * 100;
  camera.position.copy(centre).add(new THREE.Vector3(0.6, 0.45, 0.8).normalize().multiplyScalar(size * 1.6));
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();

  // A Ragnarok map: its layers to toggle and a fly mode.
  const layers = mapLayers(model);
  const map = layers ? setUpMap(layers, { bar: controlsBar, camera, orbit: controls, canvas, size }) : null;
  if (map) {
    // A map is seen from the south, high above, close enough to fill the view (north is −Z).
    camera.position.copy(centre).add(new THREE.Vector3(0, 0.75, 0.66).normalize().multiplyScalar(size * 0.7));
    controls.update();
  }

  // Animation clips.
  const mixer = new THREE.AnimationMixer(model);
  let action = null;
  let playing = false;
  const clock = new THREE.Clock();
  if (gltf.animations.length) {
    const clips = h('select', { class: 'clip-picker', 'aria-label': 'Animation' },
      gltf.animations.map((c, i) => h('option', { value: String(i), text: c.name || `clip ${i}` })));
    const play = h('button', { class: 'play', text: '▶ play' });
    const choose = (i) => {
      action?.stop();
      action = mixer.clipAction(gltf.animations[i]);
      action.play();
      action.paused = !playing;
    };
    clips.addEventListener('change', () => choose(Number(clips.value)));
    play.addEventListener('click', () => {
      playing = !playing;
      if (action) action.paused = !playing;
      play.textContent = playing ? '❚❚ pause' : '▶ play';
    });
    choose(0);
    controlsBar.append(h('label', { text: 'Animation ' }, clips), play);
  }

  // Morph targets, by name, across the meshes that have them.
  const targets = new Map();
  model.traverse((o) => {
    if (!o.isMesh || !o.morphTargetInfluences) return;
    for (const [name, i] of Object.entries(o.morphTargetDictionary || {})) {
      if (!targets.has(name)) targets.set(name, []);
      targets.get(name).push([o, i]);
    }
  });
  for (const [name, users] of targets) {
    const slider = h('input', { type: 'range', min: '0', max: '1', step: '0.01', value: String(users[0][0].morphTargetInfluences[users[0][1]] || 0) });
    slider.addEventListener('input', () => {
      for (const [mesh, i] of users) mesh.morphTargetInfluences[i] = Number(slider.value);
    });
    morphs.append(h('label', { class: 'morph' }, h('span', { text: name }), slider));
  }
  if (targets.size) morphs.prepend(h('h3', { text: 'Morph targets' }));

  const resize = () => {
    const w = Math.max(1, stage.clientWidth);
    const ht = Math.max(1, stage.clientHeight);
    renderer.setSize(w, ht, false);
    camera.aspect = w / ht;
    camera.updateProjectionMatrix();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(stage);
  resize();

  let frame = 0;
  const render = () => {
    const dt = clock.getDelta();
    mixer.update(dt);
    map?.update(dt);
    if (!map?.flying) controls.update();
    renderer.render(scene, camera);
  };
  const loop = () => {
    render();
    frame = requestAnimationFrame(loop);
  };
  render();
  frame = requestAnimationFrame(loop);
  return () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
    controls.dispose();
    map?.dispose();
    renderer.dispose();
    renderer.forceContextLoss?.();
  };
}

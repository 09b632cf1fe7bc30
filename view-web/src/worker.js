// The static site's worker: relic compiled to WebAssembly (crates/relic-wasm, its wasm-bindgen output in
// pkg/ beside this file) answers what the page asks (web/client.js): `get` an `/api/...` URL as `relic
// view` answers it, `mount` the files the user opened, `pack` an edited file back into a game file, `zip`
// an item's whole conversion. The Viewer reads the user's Files
// with FileReaderSync (entries on demand, never a whole archive), which only a worker may do.
//
// A panic inside relic throws here (the crate's panic hook) and leaves that Viewer unusable (its borrow
// is never released), so after any exception the Viewer is made again over the same files.

import init, { Viewer } from 'relic-wasm';

let wasm = null;
let viewer = null;
/** The size of relic's WebAssembly memory, for the browser test's bound (it reads it through CDP). */
self.relicMemory = () => wasm?.memory.buffer.byteLength ?? 0;
/** What was mounted last, to mount again into a new Viewer after a failure. */
let mounted = null;

const started = (async () => {
  try {
    wasm = await init({ module_or_path: new URL('./pkg/relic_wasm_bg.wasm', import.meta.url) });
    viewer = new Viewer();
    postMessage({ op: 'ready' });
  } catch (e) {
    postMessage({ op: 'failed', error: messageOf(e) });
    throw e;
  }
})();

function messageOf(e) {
  if (e instanceof Error) return e.message || String(e);
  return typeof e === 'string' ? e : `relic failed: ${String(e)}`;
}

/** A new Viewer over what was mounted, after an exception left the old one unusable. */
function renew() {
  try {
    viewer = new Viewer();
    if (mounted) viewer.mount(mounted.files, mounted.rootName);
  } catch {
    // the next request says what is wrong
  }
}

/** An ArrayBuffer holding exactly `bytes` (a Uint8Array), to be moved to the page. */
function bufferOf(bytes) {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes.buffer;
  return bytes.slice().buffer;
}

/** The fields of an answer of the Viewer (a plain object, or a wasm-bindgen object, freed once read). */
function read(r, f) {
  try {
    return f(r);
  } finally {
    r?.free?.();
  }
}

const OPS = {
  mount({ files, rootName }) {
    viewer.mount(files, rootName);
    mounted = { files, rootName };
    return [{}];
  },
  get({ url }) {
    return read(viewer.request(url), (r) => {
      const body = bufferOf(r.body);
      return [{ status: r.status, contentType: r.contentType, fileName: r.fileName ?? undefined, body }, [body]];
    });
  },
  pack({ path, name, bytes }) {
    return read(viewer.pack(path, name, new Uint8Array(bytes)), (r) => {
      const body = bufferOf(r.body);
      return [{ fileName: r.fileName, body, notes: [...(r.notes || [])] }, [body]];
    });
  },
  zip({ path }) {
    return read(viewer.zip(path), (r) => {
      const body = bufferOf(r.body);
      return [{ fileName: r.fileName, body, notes: [...(r.notes || [])], failures: [...(r.failures || [])] }, [body]];
    });
  },
};

self.addEventListener('message', async (e) => {
  const { id, op } = e.data;
  try {
    await started;
    const run = OPS[op];
    if (!run) throw new Error(`relic's worker has no operation ${op}`);
    const [answer, transfer = []] = run(e.data);
    postMessage({ id, ok: true, ...answer }, transfer);
  } catch (err) {
    renew();
    postMessage({ id, ok: false, error: messageOf(err) });
  }
});

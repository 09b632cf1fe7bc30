// The static site's worker: relic compiled to WebAssembly (crates/relic-wasm, its wasm-bindgen output in
// pkg/ beside this file) answers what the page asks (web/client.js): `get` an `/api/...` URL as `relic
// view` answers it, `mount` the files the user opened, `pack` an edited file back into a game file, `zip`
// an item's whole conversion. The Viewer reads the user's Files with FileReaderSync (entries on demand,
// never a whole archive), which only a worker may do.
//
// A panic inside relic (a bug) traps: the crate's panic hook has left its message in `__relicPanic`. The
// instance cannot be trusted after that (a lock or the stack may be left half-way), so the worker reports
// it, says it `crashed` and closes; the page starts a new worker over the same files (web/client.js).

import init, { Viewer } from 'relic-wasm';

let wasm = null;
let viewer = null;
/** The size of relic's WebAssembly memory, for the browser test's bound (it reads it through CDP). */
self.relicMemory = () => wasm?.memory.buffer.byteLength ?? 0;

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
      const companions = [...(r.companions || [])].map((c) => ({ fileName: c.fileName, body: bufferOf(c.body) }));
      const answer = { fileName: r.fileName, body, notes: [...(r.notes || [])], companions };
      return [answer, [body, ...companions.map((c) => c.body)]];
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
    const panic = self.__relicPanic;
    if (panic || err instanceof WebAssembly.RuntimeError) {
      postMessage({ id, ok: false, error: panic || `relic stopped: ${messageOf(err)}` });
      postMessage({ op: 'crashed' });
      self.close();
      return;
    }
    postMessage({ id, ok: false, error: messageOf(err) });
  }
});

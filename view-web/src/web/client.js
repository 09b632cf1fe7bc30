// The page's side of the Web Worker that runs relic as WebAssembly (worker.js): numbered requests
// (`{id, op, ...}`) answered `{id, ok: true, ...}` or `{id, ok: false, error}`. A request whose AbortSignal
// fires is rejected at once and its answer dropped when it comes (the worker works on one thing at a time
// and cannot stop half-way). `get` is the transport of api.js: it answers `/api/...` URLs as the server does.

export class WorkerClient {
  constructor(url) {
    this.worker = new Worker(url, { type: 'module' });
    this.next = 1;
    /** id -> {resolve, reject} */
    this.pending = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.loaded = resolve;
      this.broken = reject;
    });
    this.worker.addEventListener('message', (e) => this.answer(e.data));
    this.worker.addEventListener('error', (e) => {
      const error = new Error(`relic's worker failed: ${e.message || 'it could not be loaded'}`);
      this.broken(error);
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    });
  }

  answer(message) {
    if (message.op === 'ready') return this.loaded();
    if (message.op === 'failed') return this.broken(new Error(`relic could not start: ${message.error}`));
    const waiting = this.pending.get(message.id);
    if (!waiting) return; // dropped: its signal fired
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message);
    else waiting.reject(new Error(message.error));
  }

  /** Sends `{op, ...fields}` (moving `transfer`) and resolves to the worker's answer. */
  async call(op, fields = {}, { transfer = [], signal } = {}) {
    await this.ready;
    if (signal?.aborted) throw new DOMException('the request was aborted', 'AbortError');
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      signal?.addEventListener('abort', () => {
        if (this.pending.delete(id)) reject(new DOMException('the request was aborted', 'AbortError'));
      }, { once: true });
      this.worker.postMessage({ id, op, ...fields }, transfer);
    });
  }

  /** Answers an `/api/...` URL: `{status, contentType, fileName, body: ArrayBuffer}`. */
  async get(url, signal) {
    try {
      return await this.call('get', { url }, { signal });
    } catch (err) {
      if (err.name === 'AbortError') throw err;
      // relic failed inside (not an answer it gave): shown as a server's 500 would be.
      const body = new TextEncoder().encode(JSON.stringify({ error: err.message })).buffer;
      return { status: 500, contentType: 'application/json', fileName: undefined, body };
    }
  }
}

// The page's side of the Web Worker that runs relic as WebAssembly (worker.js): numbered requests
// (`{id, op, ...}`) answered `{id, ok: true, ...}` or `{id, ok: false, error}`. A request whose AbortSignal
// fires is rejected at once and its answer dropped when it comes (the worker works on one thing at a time
// and cannot stop half-way). `get` is the transport of api.js: it answers `/api/...` URLs as the server does.
// A worker whose relic panicked says it `crashed` and closes: a new one is started and given the files the
// old one had, so that one bug does not end the page.

export class WorkerClient {
  constructor(url) {
    this.url = url;
    this.next = 1;
    /** id -> {resolve, reject} */
    this.pending = new Map();
    /** The last files mounted, for a new worker. */
    this.mounted = null;
    this.start();
  }

  /** Starts a worker; `ready` resolves once relic is loaded in it. */
  start() {
    this.worker = new Worker(this.url, { type: 'module' });
    this.ready = new Promise((resolve, reject) => {
      this.loaded = resolve;
      this.broken = reject;
    });
    this.ready.catch(() => {}); // reported through whoever waits for it
    const worker = this.worker;
    worker.addEventListener('message', (e) => this.answer(e.data));
    worker.addEventListener('error', (e) => {
      if (worker !== this.worker) return;
      const error = new Error(`relic's worker failed: ${e.message || 'it could not be loaded'}`);
      this.broken(error);
      this.dropAll(error);
    });
  }

  dropAll(error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  /** After a crash: a new worker, given the files the old one had. */
  restart() {
    this.worker.terminate();
    this.dropAll(new Error('relic stopped after an internal error and was restarted: try again'));
    this.start();
    if (this.mounted) {
      const { files, rootName } = this.mounted;
      const again = this.ready.then(() => new Promise((resolve, reject) => {
        const id = this.next++;
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage({ id, op: 'mount', files, rootName });
      }));
      this.ready = again;
      again.catch(() => {});
    }
  }

  answer(message) {
    if (message.op === 'ready') return this.loaded();
    if (message.op === 'failed') return this.broken(new Error(`relic could not start: ${message.error}`));
    if (message.op === 'crashed') return this.restart();
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
    }).then((answer) => {
      if (op === 'mount') this.mounted = { files: fields.files, rootName: fields.rootName };
      return answer;
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

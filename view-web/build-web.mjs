// Builds the static site of relic (issue 31): relic as WebAssembly in a Web Worker, and the same app as
// `relic view` (`<body data-mode="web">`) opening files the user drops or picks. One command:
//
//   npm run --prefix view-web build:web
//
// It builds crates/relic-wasm for wasm32-unknown-unknown (cargo profile $RELIC_WEB_PROFILE, else `dist`: the
// published site is the smallest build; CI takes `release`, which builds in about half the time), runs wasm-bindgen (`--target web`) on
// it, `wasm-opt -Oz` when wasm-opt is on PATH, bundles the app (src/main.js, three.js) and the worker
// (src/worker.js with the wasm-bindgen glue) with esbuild, writes index.html (web.html, which carries the
// Content-Security-Policy), and prints the .wasm's size raw, gzip and brotli. The output folder is
// $RELIC_WEB_OUT, else <target dir>/relic-web/ (the target dir: $CARGO_TARGET_DIR, else <repo>/target).
// Any static server serves it; `relic view --static DIR` does, on 127.0.0.1.

import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const targetDir = resolve(repo, process.env.CARGO_TARGET_DIR || 'target');
const out = process.env.RELIC_WEB_OUT ? resolve(process.env.RELIC_WEB_OUT) : join(targetDir, 'relic-web');
const TARGET = 'wasm32-unknown-unknown';

function fail(message) {
  console.error(`build:web: ${message}`);
  process.exit(1);
}

/** Runs a program, its output shown; fails the build when it fails. */
function run(program, args, options = {}) {
  const r = spawnSync(program, args, { stdio: 'inherit', ...options });
  if (r.error) fail(`cannot run ${program}: ${r.error.message}`);
  if (r.status !== 0) fail(`${program} ${args.join(' ')} failed (exit ${r.status})`);
}

/** Whether a program is on PATH. */
function onPath(program) {
  return (process.env.PATH || '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));
}

/** The version of the `wasm-bindgen` crate in Cargo.lock: wasm-bindgen-cli must be the same. */
function lockedBindgen() {
  const lock = readFileSync(join(repo, 'Cargo.lock'), 'utf8');
  const m = /\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/.exec(lock.replaceAll('\r\n', '\n'));
  if (!m) fail('Cargo.lock has no wasm-bindgen crate: is crates/relic-wasm in the workspace?');
  return m[1];
}

// What the build needs from outside npm, checked first, each with the command that installs it.
const version = lockedBindgen();
const sysroot = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' });
if (sysroot.status !== 0) fail('rustc is not installed (https://rustup.rs)');
if (!existsSync(join(sysroot.stdout.trim(), 'lib', 'rustlib', TARGET))) {
  fail(`Rust's ${TARGET} target is not installed: run \`rustup target add ${TARGET}\``);
}
const bindgen = spawnSync('wasm-bindgen', ['--version'], { encoding: 'utf8' });
const install = `cargo install wasm-bindgen-cli --version ${version}`;
if (bindgen.error || bindgen.status !== 0) fail(`wasm-bindgen is not installed: run \`${install}\``);
const found = bindgen.stdout.trim().split(/\s+/)[1];
if (found !== version) {
  fail(`wasm-bindgen ${found} is installed, but Cargo.lock pins the crate at ${version}: run \`${install} --force\``);
}

// relic as WebAssembly.
const profile = process.env.RELIC_WEB_PROFILE || 'dist';
run('cargo', ['build', '-p', 'relic-wasm', '--profile', profile, '--target', TARGET],
  { cwd: repo, env: { ...process.env, CARGO_TARGET_DIR: targetDir } });
const built = join(targetDir, TARGET, profile, 'relic_wasm.wasm');
if (!existsSync(built)) fail(`cargo built no ${built}`);
rmSync(out, { recursive: true, force: true });
const pkg = join(out, 'pkg');
mkdirSync(pkg, { recursive: true });
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', pkg, built]);
const wasm = join(pkg, 'relic_wasm_bg.wasm');
if (onPath('wasm-opt')) {
  // The features rustc turns on for wasm32 by default, so that wasm-opt accepts what it reads.
  run('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
    '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue', wasm, '-o', wasm]);
} else {
  console.log('build:web: wasm-opt is not on PATH: the .wasm is left as wasm-bindgen wrote it');
}

// The app and the worker. The worker imports the wasm-bindgen glue as `relic-wasm`.
const glue = join(pkg, 'relic_wasm.js');
await build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  legalComments: 'eof',
  charset: 'utf8',
  outfile: join(out, 'app.js'),
  logLevel: 'warning',
});
await build({
  entryPoints: [join(here, 'src', 'worker.js')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  legalComments: 'eof',
  charset: 'utf8',
  alias: { 'relic-wasm': glue },
  outfile: join(out, 'worker.js'),
  logLevel: 'warning',
});
await build({
  entryPoints: [join(here, 'src', 'style.css')],
  bundle: true,
  minify: true,
  outfile: join(out, 'app.css'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'web.html'), join(out, 'index.html'));
// The glue is in worker.js now; the .wasm stays in pkg/, where the worker loads it from.
rmSync(glue);

const bytes = readFileSync(wasm);
const gzip = gzipSync(bytes, { level: 9 }).length;
const brotli = brotliCompressSync(bytes, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
}).length;
const mib = (n) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
const sizes = { raw: bytes.length, gzip, brotli };
writeFileSync(join(out, 'build.json'), `${JSON.stringify({ wasm: 'pkg/relic_wasm_bg.wasm', sizes }, null, 2)}\n`);
console.log(`built the static site into ${relative(process.cwd(), out) || '.'}`);
console.log(`relic_wasm_bg.wasm: ${mib(bytes.length)} raw, ${mib(gzip)} gzip, ${mib(brotli)} brotli`);

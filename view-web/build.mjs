// Builds the front end of `relic view` into crates/relic/src/view/dist/ (committed, embedded in relic with
// include_bytes!): app.js (src/main.js bundled with three.js, minified), app.css, index.html, and
// build.json, which records the SHA-256 of the sources built from and of each built file. The Rust test
// `view_bundle` recomputes both and fails when the bundle is stale or was edited by hand.
//
//   npm ci --prefix view-web && npm run --prefix view-web build

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'crates', 'relic', 'src', 'view', 'dist');
mkdirSync(out, { recursive: true });

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
  entryPoints: [join(here, 'src', 'style.css')],
  bundle: true,
  minify: true,
  outfile: join(out, 'app.css'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));

/** The files the bundle is built from, as the Rust test lists them: these four and everything in src/. */
function sources() {
  const list = ['build.mjs', 'index.html', 'package-lock.json', 'package.json'];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else list.push(relative(here, path).split('\\').join('/'));
    }
  };
  walk(join(here, 'src'));
  return list.sort();
}

/** Text with CRLF line ends read as LF, so that a checkout that converts line ends hashes the same. */
const normalized = (path) => readFileSync(path).toString('binary').replaceAll('\r\n', '\n');

const all = createHash('sha256');
for (const file of sources()) {
  all.update(`${file}\0`, 'binary');
  all.update(normalized(join(here, file)), 'binary');
  all.update('\0', 'binary');
}
const files = {};
for (const name of ['app.css', 'app.js', 'index.html']) {
  files[name] = createHash('sha256').update(normalized(join(out, name)), 'binary').digest('hex');
}
const record = {
  note: 'Written by view-web/build.mjs (npm ci --prefix view-web && npm run --prefix view-web build); do not edit.',
  sources: all.digest('hex'),
  files,
};
writeFileSync(join(out, 'build.json'), `${JSON.stringify(record, null, 2)}\n`);
console.log(`built ${Object.keys(files).join(', ')} into ${relative(process.cwd(), out) || '.'}`);

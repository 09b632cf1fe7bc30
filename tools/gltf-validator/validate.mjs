// Validates glTF/GLB files with the Khronos validator and prints one JSON line per file:
// {"path": ..., "errors": n, "warnings": n, "messages": [...]}. Used by relic's tests (testing.rs).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

for (const file of process.argv.slice(2)) {
  const data = new Uint8Array(await readFile(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    externalResourceFunction: (uri) => readFile(path.join(dir, decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const messages = report.issues.messages
    .filter((m) => m.severity <= 1)
    .map((m) => `${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  console.log(JSON.stringify({ path: file, errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages }));
}

// Compiles a .ksy to Python with the npm build of kaitai-struct-compiler: node compile.js TOOLS KSY OUTDIR
const fs = require('fs');
const path = require('path');
const tools = process.argv[2];
const KaitaiStructCompiler = require(path.join(tools, 'node_modules/kaitai-struct-compiler'));
const yaml = require(path.join(tools, 'node_modules/js-yaml'));
const ksy = yaml.load(fs.readFileSync(process.argv[3], 'utf8'));
const compiler = typeof KaitaiStructCompiler === 'function' ? new KaitaiStructCompiler() : KaitaiStructCompiler;
compiler.compile('python', ksy, null, false).then(files => {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(process.argv[4], name), text);
}).catch(e => { console.error(e); process.exit(1); });

#!/usr/bin/env node
'use strict';
// CommonJS like dist/ (bin/package.json): no ES module loader at start-up; --version needs nothing else.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Written straight to the file descriptor: process.stdout would load Node's stream modules.
  const fs = require('node:fs');
  const { version } = JSON.parse(fs.readFileSync(`${__dirname}/../package.json`, 'utf8'));
  try {
    fs.writeSync(1, `${version}\n`);
  } catch (err) {
    if (err.code !== 'EPIPE') throw err;
  }
} else {
  let main;
  try {
    main = loadDist('main.js');
  } catch (err) {
    if (err.code !== 'ENOENT' || !String(err.path).endsWith('main.js')) throw err;
    process.stderr.write('error: trackctl is not built (no dist/main.js)\nBuild it with: npm run build\n');
    process.exit(1);
  }
  main.run(args);
}

/**
 * Loads a file of dist/ and, as they are required, the chunks it needs. They are all
 * CommonJS files of this build, required by relative path, so there is nothing to
 * resolve: Node's loader spends a third of a millisecond on each (stat, realpath,
 * package scope) and a command loads twenty or more. Anything else is required as usual.
 * NODE_DEBUG=trackctl lists each file as it loads.
 */
function loadDist(name) {
  const { readFileSync } = require('node:fs');
  const { dirname, join } = require('node:path');
  const { compileFunction } = require('node:vm');
  const debug = /\btrackctl\b/i.test(process.env.NODE_DEBUG ?? '');
  const loaded = new Map();
  const load = (file) => {
    const known = loaded.get(file);
    if (known) return known.exports;
    if (debug) process.stderr.write(`TRACKCTL ${process.pid}: load "${file}"\n`);
    const module = { exports: {} };
    loaded.set(file, module);
    const dir = dirname(file);
    const body = compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
    body.call(module.exports, module.exports, (id) => (id.startsWith('.') ? load(join(dir, id)) : require(id)), module, file, dir);
    return module.exports;
  };
  return load(join(__dirname, '..', 'dist', name));
}

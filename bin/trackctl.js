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
  const { Script } = require('node:vm');
  const debug = /\btrackctl\b/i.test(process.env.NODE_DEBUG ?? '');
  const cache = codeCache(join(__dirname, '..', 'dist'));
  const loaded = new Map();
  const load = (file) => {
    const known = loaded.get(file);
    if (known) return known.exports;
    const module = { exports: {} };
    loaded.set(file, module);
    const dir = dirname(file);
    // The wrapper Node's own CommonJS loader gives a module.
    const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
    const cachedData = cache?.read(file);
    const script = new Script(source, { filename: file, cachedData });
    if (debug) process.stderr.write(`TRACKCTL ${process.pid}: load "${file}"${cachedData === undefined ? '' : script.cachedDataRejected ? ' (code cache refused)' : ' (code cache)'}\n`);
    if (cachedData === undefined || script.cachedDataRejected) cache?.keep(file, script);
    script.runInThisContext().call(module.exports, module.exports, (id) => (id.startsWith('.') ? load(join(dir, id)) : require(id)), module, file, dir);
    return module.exports;
  };
  return load(join(__dirname, '..', 'dist', name));
}

/**
 * V8's compiled code for dist/'s files, kept between runs (as Node 22's module compile cache
 * does, which Node 20 has not): a file whose code is kept is not parsed and compiled again,
 * nor are its functions that ran when it was kept. Kept under the cache directory
 * (XDG_CACHE_HOME, else ~/.cache), one directory a build (dist/build-id) and Node version,
 * read only when it is the user's own and no one else may write it (its code runs); a
 * directory that cannot be written keeps nothing. TRACKCTL_NO_CODE_CACHE=1 turns it off.
 *
 * V8 refuses code kept under other flags than its own, and a command changes a flag when it
 * first loads WebAssembly (undici's HTTP parser, jq: see scripts/build.mjs). So the code is
 * kept just before that (the loader of the WebAssembly calls the hook
 * Symbol.for('trackctl.v8-flags')), or at exit when no flag changed, and files loaded after
 * a change use none.
 */
function codeCache(dist) {
  const fs = require('node:fs');
  const { basename, join } = require('node:path');
  if (process.env.TRACKCTL_NO_CODE_CACHE) return undefined;
  const home = process.env.XDG_CACHE_HOME || (process.env.HOME ? join(process.env.HOME, '.cache') : undefined);
  let id;
  try {
    id = fs.readFileSync(join(dist, 'build-id'), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (!home || !id) return undefined;
  const dir = join(home, 'trackctl', 'code', `${id}-${process.version}-${process.arch}`);
  let flagsChanged = false;
  let pending = [];
  const write = () => {
    const scripts = pending;
    pending = [];
    if (scripts.length === 0) return;
    try {
      if (!fs.existsSync(dir)) {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        forgetOldBuilds(join(dir, '..'));
      }
      for (const [file, script] of scripts) {
        // Written whole under another name, then renamed: a run reading at the same time sees the old or the new.
        const part = join(dir, `${basename(file)}.${process.pid}`);
        fs.writeFileSync(part, script.createCachedData());
        fs.renameSync(part, join(dir, basename(file)));
      }
    } catch {
      // A cache is only a saving: a read-only or full disk keeps nothing.
    }
  };
  /** A new build's directory: of the others, the three last written stay (builds in use side by side), the rest go. */
  const forgetOldBuilds = (parent) => {
    const others = fs
      .readdirSync(parent)
      .filter((name) => join(parent, name) !== dir)
      .map((name) => ({ path: join(parent, name), at: fs.statSync(join(parent, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.at - a.at);
    for (const old of others.slice(3)) fs.rmSync(old.path, { recursive: true, force: true });
  };
  globalThis[Symbol.for('trackctl.v8-flags')] = () => {
    if (flagsChanged) return;
    flagsChanged = true;
    write();
  };
  process.once('exit', () => flagsChanged || write());
  // Code read from the directory runs: only from one of this user's own that no one else may write.
  let trusted;
  const ours = () => {
    if (trusted === undefined) {
      try {
        const stat = fs.statSync(dir);
        trusted = (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
      } catch {
        trusted = false; // none yet, or a path that is no directory
      }
    }
    return trusted;
  };
  return {
    read(file) {
      if (flagsChanged || !ours()) return undefined;
      try {
        return fs.readFileSync(join(dir, basename(file)));
      } catch {
        return undefined;
      }
    },
    keep(file, script) {
      if (!flagsChanged) pending.push([file, script]);
    },
  };
}

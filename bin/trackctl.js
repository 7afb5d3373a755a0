#!/usr/bin/env node
'use strict';
// CommonJS like dist/ (bin/package.json): no ES module loader at start-up; --version needs nothing else.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  let cli;
  try {
    cli = require('../dist/main.js');
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes('dist/main.js')) throw err;
    process.stderr.write('error: trackctl is not built (no dist/main.js)\nBuild it with: npm run build\n');
    process.exit(1);
  }
  cli.run(args);
}

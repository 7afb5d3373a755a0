#!/usr/bin/env node
'use strict';
// CommonJS like dist/ (bin/package.json): no ES module loader at start-up; --version needs nothing else.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('../dist/main.js')
    .main(args)
    .then((code) => {
      process.exitCode = code;
    });
}

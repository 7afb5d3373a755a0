#!/usr/bin/env node
'use strict';
// CommonJS on purpose (bin/package.json): printing the version then needs no ES module loader.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/main.js').then(async ({ main }) => {
    process.exitCode = await main(args);
  });
}

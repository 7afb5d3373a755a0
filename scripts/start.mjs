// `npm start`: bundle (no type-check: a second or so), then show the demo fleet from the embedded sandbox.
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const b = spawnSync(process.execPath, [`${root}scripts/build.mjs`, '--no-check'], { stdio: 'inherit' });
if (b.status !== 0) process.exit(b.status ?? 1);
const args = process.argv.length > 2 ? process.argv.slice(2) : ['--sandbox', 'units'];
const r = spawnSync(process.execPath, [`${root}bin/trackctl.js`, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);

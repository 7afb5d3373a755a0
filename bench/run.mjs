// `npm run bench`: every benchmark in bench/, one after another (lib.mjs and read-body.mjs are their parts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url).pathname;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.mjs') && !['run.mjs', 'lib.mjs', 'read-body.mjs'].includes(f)).sort()) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, [dir + file], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

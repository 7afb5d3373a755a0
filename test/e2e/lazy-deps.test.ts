/**
 * The libraries behind tables and imports load only when used: machine output never
 * loads cli-table3 (terminal tables) or csv-parse (CSV imports), and a CSV import
 * does load csv-parse (so the check below can fail). NODE_DEBUG=trackctl lists each
 * dist/ file the run loaded; the chunks are found by content.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, loadedDistFiles, startHarness, type Harness } from '../helpers/cli.js';

const markers: Record<string, RegExp> = {
  'cli-table3': /node_modules\/cli-table3\/src\/table\.js"/,
  'csv-parse': /CSV_QUOTE_NOT_CLOSED/,
};
const text = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

async function loaded(args: string[]): Promise<string[]> {
  const r = await h.run(args, { env: { NODE_DEBUG: 'trackctl' } });
  assert.equal(r.code, 0, r.stderr.slice(-800));
  const files = loadedDistFiles(r.stderr);
  assert.ok(files.length > 0, 'NODE_DEBUG=trackctl reported the loaded files');
  return files;
}

const holding = (files: string[], what: string): string[] => files.filter((file) => markers[what]!.test(text(file)));

test('the library chunks exist', () => {
  const all = readdirSync(join(ROOT, 'dist', 'chunks')).map((f) => text(join('dist', 'chunks', f)));
  for (const [what, marker] of Object.entries(markers)) assert.ok(all.some((t) => marker.test(t)), `${what} is bundled`);
});

for (const args of [['devices', 'list', '-o', 'json'], ['units'], ['devices', 'get', '2004', '-o', 'yaml']]) {
  test(`trackctl ${args.join(' ')} (not a terminal) loads neither cli-table3 nor csv-parse`, async () => {
    const files = await loaded(args);
    for (const what of Object.keys(markers)) assert.deepEqual(holding(files, what), [], `${what} was loaded`);
  });
}

test('a CSV import loads csv-parse', async () => {
  const csv = h.file('lazy.csv', 'name,tracker-id,type\nLazy van,LAZY-1,TT8850\n');
  const files = await loaded(['devices', 'import', csv, '--dry-run']);
  assert.ok(holding(files, 'csv-parse').length > 0, 'csv-parse was loaded');
  assert.deepEqual(holding(files, 'cli-table3'), []);
});

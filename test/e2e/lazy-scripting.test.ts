/**
 * jq (a 1.3 MB chunk with its WebAssembly image) and Handlebars load only when --jq or
 * --template is given: not for --version, --help, or any command's ordinary output; and
 * they do load when asked for (so the check can fail). NODE_DEBUG=trackctl lists each
 * dist/ file a run loaded; the chunks are found by content.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, loadedDistFiles, startHarness, type Harness } from '../helpers/cli.js';

const markers: Record<string, RegExp> = {
  jq: /jq-wasm: instantiateWasm/,
  handlebars: /You specified knownHelpersOnly/,
};
const text = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const holding = (files: string[], what: string): string[] => files.filter((file) => markers[what]!.test(text(file)));

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

async function loaded(args: string[]): Promise<string[]> {
  const r = await h.run(args, { env: { NODE_DEBUG: 'trackctl' } });
  assert.equal(r.code, 0, r.stderr.slice(-800));
  return loadedDistFiles(r.stderr);
}

test('the jq and Handlebars chunks exist', () => {
  const all = readdirSync(join(ROOT, 'dist', 'chunks')).map((f) => text(join('dist', 'chunks', f)));
  for (const [what, marker] of Object.entries(markers)) assert.ok(all.some((t) => marker.test(t)), `${what} is bundled`);
});

for (const args of [['--version'], ['--help'], ['devices', '--help'], ['help', 'formatting']]) {
  test(`trackctl ${args.join(' ')} loads neither jq nor Handlebars`, () => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_DEBUG: 'trackctl', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr.slice(-500));
    const files = loadedDistFiles(r.stderr);
    for (const what of Object.keys(markers)) assert.deepEqual(holding(files, what), [], `${what} was loaded`);
  });
}

for (const args of [['devices', 'list', '-o', 'json'], ['units'], ['devices', 'list', '-o', 'custom-columns=ID:.did']]) {
  test(`trackctl ${args.join(' ')} loads neither jq nor Handlebars`, async () => {
    const files = await loaded(args);
    assert.ok(files.length > 0, 'NODE_DEBUG=trackctl reported the loaded files');
    for (const what of Object.keys(markers)) assert.deepEqual(holding(files, what), [], `${what} was loaded`);
  });
}

test('--jq loads jq (not Handlebars), --template loads Handlebars (not jq)', async () => {
  const jq = await loaded(['devices', 'list', '--jq', 'length']);
  assert.ok(holding(jq, 'jq').length > 0, 'jq was loaded');
  assert.deepEqual(holding(jq, 'handlebars'), []);
  const template = await loaded(['devices', 'list', '--template', '{{#each .}}{{name}}{{/each}}']);
  assert.ok(holding(template, 'handlebars').length > 0, 'Handlebars was loaded');
  assert.deepEqual(holding(template, 'jq'), []);
});

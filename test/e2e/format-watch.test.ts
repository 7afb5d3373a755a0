/**
 * watch with --jq, --template and -o custom-columns: each event, as -o ndjson has it.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';

const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

describe('watch with scripted output', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400 });
  });
  after(async () => {
    await h.close();
  });

  test('watch: --jq, --template and custom columns apply to each event', async () => {
    // Stopped with Ctrl-C once the first round is out: watch finishes the round, so every event of it is written.
    const run = async (extra: string[], name: string, atLeast = 1): Promise<string[]> => {
      const out = join(h.dir, `${name}.out`);
      const p = spawnTo(h, ['watch', '2004', '2005', '2008', '2010', '--interval', '1s', ...extra], out);
      try {
        const deadline = Date.now() + 60_000;
        while (lines(readFileSync(out, 'utf8')).length < atLeast && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      } finally {
        p.kill('SIGINT');
      }
      assert.equal(await p.exit, 0, p.err());
      return lines(readFileSync(out, 'utf8'));
    };
    const events = (await run(['-o', 'ndjson'], 'ndjson')).map((line) => JSON.parse(line) as { event: string; did: number; name: string });
    assert.ok(events.length > 0);
    const firstRound = (got: string[]): string[] => got.slice(0, events.length);
    assert.deepEqual(firstRound(await run(['--jq', '"\\(.event) \\(.did)"'], 'jq')), events.map((e) => `${e.event} ${e.did}`));
    assert.deepEqual(firstRound(await run(['--template', '{{event}}:{{name}}'], 'template')), events.map((e) => `${e.event}:${e.name}`));
    const columns = await run(['-o', 'custom-columns=EVENT:.event,UNIT:.did'], 'columns', 2);
    assert.deepEqual(columns.slice(0, events.length + 1), ['EVENT\tUNIT', ...events.map((e) => `${e.event}\t${e.did}`)]);
  });
});

/**
 * What the --jq tests share: sandbox documents (real command output over a frozen clock),
 * Debian's jq, and the check that `trackctl ARGS --jq EXPR` prints exactly what
 * `trackctl ARGS -o json | jq -r -c EXPR` prints. The corpus is split over several test
 * files (jq-*.test.ts) because each expression is one run of the binary.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';
import { startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';

// A frozen sandbox clock and a window that ended before it: every run sees the same reports.
export const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
export const FROM = String(Date.UTC(2026, 10, 24, 9, 0, 0) / 1000);
export const TO = String(Date.UTC(2026, 10, 26, 9, 0, 0) / 1000);

export const DOCUMENTS = {
  units: ['units'],
  devices: ['devices', 'list'],
  device: ['devices', 'get', '2004'],
  history: ['history', '2004', '--from', FROM, '--to', TO],
  trips: ['report', 'trips', '2004', '--from', FROM, '--to', TO],
  summary: ['report', 'summary', '2004', '--from', FROM, '--to', TO, '--tz', 'UTC'],
  /** -o ndjson: a stream, jq once per record. */
  historyStream: ['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson'],
} as const;
export type Doc = keyof typeof DOCUMENTS;

export function debianJq(expression: string, input: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('jq', ['-r', '-c', expression], { input, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `work` over `items`, `limit` at a time (each runs the binary: the machine is shared). */
export async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(work));
}

export interface JqFixture {
  h: Harness;
  json: Map<Doc, string>;
}

/** A sandbox on a frozen clock and the -o json (or ndjson) text of each document asked for. */
export async function startJqFixture(docs: readonly Doc[]): Promise<JqFixture> {
  const h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400, inProcess: true });
  const json = new Map<Doc, string>();
  for (const doc of docs) {
    const args = DOCUMENTS[doc];
    const r = await h.run((args as readonly string[]).includes('ndjson') ? [...args] : [...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.length > 100, `${doc} has content`);
    json.set(doc, r.stdout);
  }
  return { h, json };
}

/** Skips (locally) or fails (CI) without jq. */
export function needJq(t: TestContext): boolean {
  return needTool(t, 'jq');
}

/** Each expression must print what jq -r -c prints on the same JSON; all mismatches reported at once. */
export async function expectSameAsJq(f: JqFixture, corpus: ReadonlyArray<readonly [Doc, string]>): Promise<void> {
  const mismatches: string[] = [];
  await inBatches(corpus, 3, async ([doc, expression]) => {
    const expected = debianJq(expression, f.json.get(doc)!);
    assert.equal(expected.code, 0, `jq itself runs ${expression}: ${expected.stderr}`);
    assert.notEqual(expected.stdout, '', `jq prints something for ${expression}`);
    const got = await f.h.run([...DOCUMENTS[doc], '--jq', expression]);
    if (got.code !== 0 || got.stdout !== expected.stdout) {
      mismatches.push(`${doc} ${expression}: exit ${got.code} ${got.stderr}\n  trackctl: ${JSON.stringify(got.stdout.slice(0, 300))}\n  jq:       ${JSON.stringify(expected.stdout.slice(0, 300))}`);
    }
  });
  assert.deepEqual(mismatches, []);
}

/** Each failing expression: exit 2 with jq's message, after exactly the output jq printed before it. */
export async function expectJqErrors(f: JqFixture, cases: ReadonlyArray<readonly [Doc, string, string]>): Promise<void> {
  await inBatches(cases, 3, async ([doc, expression, message]) => {
    const expected = debianJq(expression, f.json.get(doc)!);
    assert.notEqual(expected.code, 0, `jq itself fails on ${expression}`);
    assert.ok(expected.stderr.includes(message), `jq says ${message}: ${expected.stderr}`);
    const got = await f.h.run([...DOCUMENTS[doc], '--jq', expression]);
    assert.equal(got.code, 2, `exit 2 for ${expression}: ${got.stderr}`);
    assert.match(got.stderr, /^error: jq: /, expression);
    assert.ok(got.stderr.includes(message), `names "${message}": ${got.stderr}`);
    assert.equal(got.stdout, expected.stdout, `output before the error, ${expression}`);
  });
}

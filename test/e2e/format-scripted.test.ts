/**
 * -o custom-columns and --template end to end: on lists, single records and streams
 * (history -o ndjson, watch), each checked against the command's own -o json output;
 * bad specs and templates are exit 2 with nothing sent.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';

const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
const FROM = String(Date.UTC(2026, 10, 25, 9, 0, 0) / 1000);
const TO = String(Date.UTC(2026, 10, 26, 9, 0, 0) / 1000);

interface Device {
  did: number;
  name: string;
  deviceType: string;
  groupMember?: number[];
  lastGPSTimestamp: number;
  lastBatteryLevel: number | null;
}
interface Feature {
  properties: { date: number; speed: number; did: number };
  geometry: { coordinates: [number, number] };
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

describe('custom columns and templates', () => {
  let h: Harness;
  let devices: Device[];
  let history: Feature[];
  before(async () => {
    h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400 });
    devices = await h.json<Device[]>(['devices', 'list']);
    const r = await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    history = lines(r.stdout).map((line) => JSON.parse(line) as Feature);
    assert.ok(devices.length > 5 && history.length > 20);
  });
  after(async () => {
    await h.close();
  });

  test('custom columns on a list: kubectl paths, <none> for what is missing, tab-separated when piped', async () => {
    const spec = 'ID:.did,NAME:.name,FIRST GROUP:.groupMember[0],GROUPS:.groupMember[*],LAST:{.groupMember[-1]},NOPE:.position.lat';
    const r = await h.run(['devices', 'list', '-o', `custom-columns=${spec}`]);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = lines(r.stdout);
    assert.equal(header, 'ID\tNAME\tFIRST GROUP\tGROUPS\tLAST\tNOPE');
    const none = (v: unknown): string => (v === undefined ? '<none>' : String(v));
    assert.deepEqual(
      rows,
      devices.map((d) => {
        const groups = d.groupMember ?? [];
        return [d.did, d.name, none(groups[0]), groups.length ? groups.join(',') : '<none>', none(groups.at(-1)), '<none>'].join('\t');
      }),
    );
    const bare = await h.run(['devices', 'list', '-o', 'custom-columns=ID:did', '--no-header']);
    assert.deepEqual(lines(bare.stdout), devices.map((d) => String(d.did)));
  });

  test('custom columns on one record, and from a file (headers line, paths line)', async () => {
    const one = await h.run(['devices', 'get', '2004', '-o', 'custom-columns=NAME:.name,TYPE:.deviceType']);
    assert.equal(one.code, 0, one.stderr);
    const d = devices.find((x) => x.did === 2004)!;
    assert.equal(one.stdout, `NAME\tTYPE\n${d.name}\t${d.deviceType}\n`);
    const file = h.file('columns.txt', 'ID      BATTERY\n.did    .lastBatteryLevel\n');
    const fromFile = await h.run(['devices', 'list', '-o', `custom-columns-file=${file}`]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.deepEqual(lines(fromFile.stdout), ['ID\tBATTERY', ...devices.map((x) => `${x.did}\t${x.lastBatteryLevel ?? '<none>'}`)]);
  });

  test('custom columns on a stream: one row per history report, as -o ndjson has them', async () => {
    const r = await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'custom-columns=TIME:.properties.date,SPEED:.properties.speed,LAT:.geometry.coordinates[1]']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lines(r.stdout), ['TIME\tSPEED\tLAT', ...history.map((f) => `${f.properties.date}\t${f.properties.speed}\t${f.geometry.coordinates[1]}`)]);
  });

  test('a bad custom-columns spec or file is exit 2 and sends nothing', async () => {
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns=ID'], 'expected <header>:<json-path-expr>');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns=ID:.did..name'], 'invalid custom-columns path');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns='], 'needs columns');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns=ID:.did', '--fields', 'did'], '--fields does not apply');
    await h.expectUsage(['devices', 'list', '-o', `custom-columns-file=${join(h.dir, 'missing.txt')}`], 'cannot read');
    await h.expectUsage(['devices', 'list', '-o', `custom-columns-file=${h.file('bad.txt', 'A B\n.a\n')}`], 'two lines');
  });

  test('a template on a list: fields, Go escapes in literals, join, truncate, timefmt, tablerow (TSV when piped)', async () => {
    const template = '{{#each .}}{{did}}{{"\\t"}}{{truncate 8 name}}{{"\\t"}}{{join "+" groupMember}}{{"\\t"}}{{timefmt "%Y-%m-%d %H:%M:%S" lastGPSTimestamp}}{{"\\n"}}{{/each}}';
    const r = await h.run(['devices', 'list', '--template', template]);
    assert.equal(r.code, 0, r.stderr);
    const cut = (s: string): string => (s.length > 8 ? `${s.slice(0, 7)}…` : s);
    const utc = (t: number): string => new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 19);
    assert.deepEqual(lines(r.stdout), devices.map((d) => [d.did, cut(d.name), (d.groupMember ?? []).join('+'), utc(d.lastGPSTimestamp)].join('\t')));
    const table = await h.run(['devices', 'list', '--template', '{{#each .}}{{tablerow did name (timeago lastGPSTimestamp)}}{{/each}}']);
    assert.equal(table.code, 0, table.stderr);
    const rows = lines(table.stdout).map((line) => line.split('\t'));
    assert.deepEqual(rows.map((row) => row.slice(0, 2)), devices.map((d) => [String(d.did), d.name]));
    // The sandbox's clock is frozen, trackctl's is not: the seeded times may lie ahead of it.
    for (const row of rows) assert.match(row[2]!, /^(just now|(in )?\d+ (s|min|h|d)( ago)?|\d{4}-\d\d-\d\d)$/);
  });

  test('a template on one record and on a stream (each record, a newline after each)', async () => {
    const one = await h.run(['devices', 'get', '2004', '--template', '{{name}} ({{deviceType}})']);
    const d = devices.find((x) => x.did === 2004)!;
    assert.equal(one.stdout, `${d.name} (${d.deviceType})\n`);
    const stream = await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson', '--template', '{{properties.date}} {{properties.speed}}']);
    assert.equal(stream.code, 0, stream.stderr);
    assert.deepEqual(lines(stream.stdout), history.map((f) => `${f.properties.date} ${f.properties.speed}`));
    // Without -o ndjson the document is the whole list.
    const whole = await h.run(['history', '2004', '--from', FROM, '--to', TO, '--template', '{{#each .}}{{#if @last}}{{@index}}{{/if}}{{/each}}']);
    assert.equal(whole.stdout, `${history.length - 1}\n`);
  });

  test('a bad template (syntax, unknown helper, helper misuse) is exit 2; syntax and helpers are checked before sending', async () => {
    await h.expectUsage(['devices', 'list', '--template', '{{#each .}}{{name}}'], 'Parse error');
    await h.expectUsage(['devices', 'list', '--template', '{{#each .}}{{nosuch name}}{{/each}}'], 'nosuch');
    await h.expectUsage(['devices', 'list', '-o', 'yaml', '--template', '{{name}}'], 'works on JSON');
    const misuse = await h.run(['devices', 'list', '--template', '{{#each .}}{{truncate name}}{{/each}}']);
    assert.equal(misuse.code, 2, misuse.stderr);
    assert.match(misuse.stderr, /truncate takes 2 arguments/);
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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { FeatureSplitter, historyPath, openHistory, type HistoryItem } from '../../src/api/history.js';
import type { Api } from '../../src/api/client.js';
import { ApiError, NetworkError } from '../../src/errors.js';

const features = [
  { type: 'Feature', properties: { did: 1, name: 'Quote " and \\ backslash', date: 1, message: 'brace } bracket ] in a string {[' }, geometry: { type: 'Point', coordinates: [-104.9, 39.7] } },
  { type: 'Feature', properties: { did: 1, name: 'Crème brûlée 日本 🚗', date: 2, message: 'line\nbreak\ttab \u001b[31mred', nested: { a: [1, { b: [] }] } }, geometry: { type: 'Point', coordinates: [0, 0] } },
  { type: 'Feature', properties: { did: 1, name: '\\"', date: 3, message: '\\', address: null, speed: -1.5e3 }, geometry: { type: 'Point', coordinates: [1.5, -2.25] } },
];
const success = 'Reports have been successfully retrieved.';
const bodies: Record<string, string> = {
  compact: JSON.stringify({ features, success }),
  'success first': JSON.stringify({ success, features }),
  pretty: JSON.stringify({ features, success, resultCount: 3, extra: { nested: [1, '}'] } }, null, 2),
  'escaped unicode': JSON.stringify({ features, success }).replace(/é/g, '\\u00e9').replace(/🚗/g, '\\ud83d\\ude97'),
};

function split(body: Buffer, cuts: number[]): { texts: string[]; splitter: FeatureSplitter } {
  const splitter = new FeatureSplitter(200);
  const texts: string[] = [];
  let prev = 0;
  for (const cut of [...cuts, body.length]) {
    texts.push(...splitter.cut(body.subarray(prev, cut)).map((r) => r.text));
    prev = cut;
  }
  splitter.end();
  return { texts, splitter };
}

for (const [name, text] of Object.entries(bodies)) {
  test(`splitter (${name}): the same features whatever byte the body is cut at`, () => {
    const body = Buffer.from(text, 'utf8');
    for (let cut = 0; cut <= body.length; cut++) {
      const { texts } = split(body, [cut]);
      assert.deepEqual(texts.map((t) => JSON.parse(t) as unknown), features, `cut at byte ${cut}`);
    }
  });
}

test('splitter: one byte at a time, and three-way cuts', () => {
  const body = Buffer.from(bodies.pretty as string, 'utf8');
  const each = split(body, Array.from({ length: body.length }, (_, i) => i));
  assert.deepEqual(each.texts.map((t) => JSON.parse(t) as unknown), features);
  for (let a = 0; a < body.length; a += 7) {
    for (let b = a; b < body.length; b += 13) {
      assert.equal(split(body, [a, b]).texts.length, 3, `cuts ${a}, ${b}`);
    }
  }
});

test('splitter: feature text is the service text, byte for byte', () => {
  const body = Buffer.from(bodies.compact as string, 'utf8');
  const { texts } = split(body, [100]);
  assert.deepEqual(texts, features.map((f) => JSON.stringify(f)));
});

test('splitter: verbatim is false for a chunk holding a line break or C1 bytes', () => {
  const s = new FeatureSplitter(200);
  s.cut(Buffer.from('{"features":[{"a":"x"},'));
  assert.equal(s.verbatim, true);
  s.cut(Buffer.from('{"a":"\u0085"},'));
  assert.equal(s.verbatim, false);
  s.cut(Buffer.from('{"a":1}\n,'));
  assert.equal(s.verbatim, false);
  s.cut(Buffer.from('{"a":2},'));
  assert.equal(s.verbatim, false, 'a feature may have begun in the dirty chunk before');
  s.cut(Buffer.from('{"a":3}],"success":"ok"}'));
  assert.equal(s.verbatim, true);
  s.end();
});

test('splitter: empty features and an empty object', () => {
  assert.deepEqual(split(Buffer.from('{"features":[],"success":"ok"}'), []).texts, []);
  assert.deepEqual(split(Buffer.from(' { "success" : "ok" , "features" : [ ] } \n'), [5]).texts, []);
});

test('splitter: a body cut short at any byte fails at the end, naming the status', () => {
  const body = Buffer.from(bodies.compact as string, 'utf8');
  for (let cut = 0; cut < body.length; cut++) {
    const s = new FeatureSplitter(200);
    s.cut(body.subarray(0, cut));
    assert.throws(() => s.end(), (err: unknown) => err instanceof ApiError && /ended before its JSON was complete \(status 200/.test(err.message), `cut at ${cut}`);
  }
});

test('splitter: malformed envelopes are ApiErrors with an excerpt', () => {
  const bad = [
    '[]', '{"features":[1]}', '{"features":[{"a":1},]}', '{"features":[{"a":1}] "success":"x"}', '{"features":{"1":{}}}', '{"features":"none"}',
    '<html>502 Bad Gateway</html>', '{"features":[]} trailing', '{,}', '{"features":[],}',
    // A proxy's JSON page: neither success, features nor error.
    '{}', '{"status":"ok","page":"maintenance"}',
  ];
  for (const text of bad) {
    assert.throws(() => split(Buffer.from(text), []), (err: unknown) => err instanceof ApiError && /status 200/.test(err.message), text);
  }
});

test('splitter: no reports in any JSON form is an empty history', () => {
  for (const text of ['{"features":{},"success":"ok"}', '{"features":null,"success":"ok"}', '{"success":"ok","features":[]}']) {
    assert.deepEqual(split(Buffer.from(text), [3]).texts, [], text);
  }
});

test('splitter: a reply without "features" or a "success" text is no history, wherever the chunks fall', () => {
  const cases: Array<[string, RegExp]> = [
    ['{"success":"Reports."}', /no "features"/],
    ['{"success":true}', /"success" that is not a text/],
    ['{"features":[{"a":1}],"success":true}', /"success" that is not a text/],
    ['{"features":[]}', /no "success"/],
    ['{"success":"false"}', /\{"success":"false"\}/],
    ['{"features":[],"success":"0"}', /"success":"0"/],
  ];
  for (const [text, pattern] of cases) {
    for (const cut of [1, 5, text.length - 2]) {
      assert.throws(() => split(Buffer.from(text), [cut]), (err: unknown) => err instanceof ApiError && pattern.test(err.message) && /status 200|answered 200/.test(err.message), text);
    }
  }
});

test('splitter: a 200 body that is an error fails with the service text, wherever the chunks fall', () => {
  const cases: Array<[string, RegExp]> = [
    ['{"error":"unit 7 is not in your account"}', /unit 7 is not in your account/],
    ['{"features":[],"success":false,"message":"history is disabled"}', /history is disabled/],
    ['{"error":"invalid_request","error_description":"from: is after to:"}', /from: is after to:/],
    ['{"errors":[{"message":"bad id"}],"features":null}', /bad id/],
  ];
  for (const [text, pattern] of cases) {
    for (const cut of [1, 5, 12, text.length - 2]) {
      assert.throws(() => split(Buffer.from(text), [cut]), (err: unknown) => err instanceof ApiError && pattern.test(err.message) && /200/.test(err.message), text);
    }
  }
});

test('historyPath: segments in the documented order, each ending in a slash', () => {
  assert.equal(historyPath(12, {}), '/reports/history/12/');
  assert.equal(
    historyPath(12, { reportTypes: ['sos', 'crash'], lastQueryTime: 30, to: 20, from: 10 }),
    '/reports/history/12/from:10/to:20/lastQueryTime:30/reportTypes:sos,crash/',
  );
  assert.equal(historyPath(12, { lastQueryTime: 0 }), '/reports/history/12/lastQueryTime:0/');
  assert.throws(() => historyPath(12, { from: 1.5 }), RangeError);
  assert.throws(() => historyPath(12, { reportTypes: ['x/y'] }), RangeError);
});

function fakeApi(body: Readable, date?: string): Api {
  return {
    stream: async () => ({ status: 200, headers: date ? { date } : {}, body }),
  } as unknown as Api;
}

async function collect(batches: AsyncGenerator<HistoryItem[]>): Promise<HistoryItem[]> {
  const all: HistoryItem[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

test('openHistory: parses each feature and reads the Date header', async () => {
  const text = bodies.compact as string;
  const body = Readable.from([Buffer.from(text.slice(0, 50)), Buffer.from(text.slice(50))]);
  const reply = await openHistory(fakeApi(body, 'Sun, 22 Nov 2026 01:00:00 GMT'), 1, {});
  assert.equal(reply.serverTime, Date.UTC(2026, 10, 22, 1) / 1000);
  const items = await collect(reply.batches);
  assert.deepEqual(items.map((i) => i.feature), features);
});

test('openHistory: a connection dropped mid-body is a NetworkError', async () => {
  const body = new Readable({ read() {} });
  body.push(Buffer.from('{"features":[{"type":"Feature","properties":{}},'));
  setImmediate(() => body.destroy(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })));
  const reply = await openHistory(fakeApi(body), 1, {});
  await assert.rejects(collect(reply.batches), (err: unknown) => err instanceof NetworkError && /dropped/.test(err.message));
});

test('openHistory: a feature that is not JSON, or not a feature, is an ApiError', async () => {
  for (const text of ['{"features":[{"a":tru}]}', '{"features":[{"type":"Feature"}]}']) {
    const reply = await openHistory(fakeApi(Readable.from([Buffer.from(text)])), 1, {});
    await assert.rejects(collect(reply.batches), (err: unknown) => err instanceof ApiError && /status 200/.test(err.message), text);
  }
});

/** shares: /v2/location-shares/ with the three expiration modes as sent, PATCH of name/expiration only, url and embed. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseCsv } from 'csv-parse/sync';
import { startHarness, type Harness } from '../helpers/cli.js';

interface ShareRec {
  sid: string;
  uid: number;
  did?: number;
  gid?: number;
  name: string;
  timestamp: number;
  expiration: number | string;
}

const nowS = (): number => Math.floor(Date.now() / 1000);

describe('shares', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });

  /** Creates a share and returns the record and the POST body as the sandbox received it. */
  async function create(args: string[]): Promise<{ share: ShareRec; body: unknown }> {
    h.sandbox.clearRequests();
    const share = await h.json<ShareRec>(['shares', 'create', ...args]);
    const post = h.sandbox.requests.find((r) => r.method === 'POST');
    assert.equal(post?.path, '/v2/location-shares/');
    return { share, body: post?.body };
  }

  test('list: JSON records as sent; the piped table flags the expired share', async () => {
    const shares = await h.json<ShareRec[]>(['shares', 'list']);
    assert.ok(shares.length >= 3);
    assert.ok(shares.some((s) => s.expiration === 'never'));
    const t = await h.run(['shares', 'list']);
    assert.equal(t.code, 0, t.stderr);
    const [header, ...lines] = t.stdout.trim().split('\n');
    const cols = header?.split('\t') ?? [];
    assert.deepEqual(cols.slice(0, 5), ['SID', 'NAME', 'TARGET', 'EXPIRES', 'EXPIRED']);
    const expired = lines.map((l) => l.split('\t')).find((c) => c[1] === 'Delivery 4471 (expired)');
    assert.equal(expired?.[4], 'true');
    const never = lines.map((l) => l.split('\t')).find((c) => c[3] === 'never');
    assert.equal(never?.[4], 'false');
    assert.match(expired?.[3] ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'a date, not unix seconds');
  });

  test('list as NDJSON and CSV', async () => {
    const nd = await h.run(['shares', 'list', '-o', 'ndjson']);
    assert.equal(nd.code, 0, nd.stderr);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as ShareRec);
    assert.ok(lines.every((s) => typeof s.sid === 'string'));
    const csv = await h.run(['shares', 'list', '-o', 'csv', '--fields', 'sid,name,target,expiration,expired']);
    assert.equal(csv.code, 0, csv.stderr);
    const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, lines.length);
    assert.ok(rows.some((r) => /^device \d+ /.test(r.target ?? '')));
    assert.ok(rows.some((r) => /^group \d+ /.test(r.target ?? '')));
  });

  test('create with no expiry flag: no expiration field is sent and the share never expires', async () => {
    const { share, body } = await create(['--device', '2004', '--name', 'Customer ETA']);
    assert.deepEqual(body, { did: 2004, name: 'Customer ETA' });
    assert.equal(share.expiration, 'never');
    assert.equal(share.did, 2004);
    const explicit = await create(['--group', '101', '--name', 'Depot map', '--expires', 'never']);
    assert.deepEqual(explicit.body, { gid: 101, name: 'Depot map' });
    assert.equal(explicit.share.expiration, 'never');
  });

  test('create --expires TIME sends an absolute expiration in unix seconds', async () => {
    const { share, body } = await create(['--group', '101', '--name', 'Year end', '--expires', '2099-12-31T18:00:00Z']);
    const at = Date.UTC(2099, 11, 31, 18) / 1000;
    assert.deepEqual(body, { gid: 101, name: 'Year end', expiration: at });
    assert.equal(share.expiration, at);
    const before = nowS();
    const rel = await create(['--device', '2004', '--name', 'Three days', '--expires', '3d']);
    const sentAt = (rel.body as { expiration: number }).expiration;
    assert.ok(Number.isInteger(sentAt) && sentAt >= before + 3 * 86400 && sentAt <= nowS() + 3 * 86400, 'a bare duration means from now');
  });

  test('create --expires-in sends days/hours/minutes as numeric strings', async () => {
    const before = nowS();
    const { share, body } = await create(['--device', '2004', '--name', 'Delivery', '--expires-in', '2d3h30m']);
    assert.deepEqual(body, { did: 2004, name: 'Delivery', days: '2', hours: '3', minutes: '30' });
    const span = 2 * 86400 + 3 * 3600 + 30 * 60;
    assert.ok(typeof share.expiration === 'number' && share.expiration >= before + span && share.expiration <= nowS() + span);
    const ninety = await create(['--device', '2004', '--name', 'Ninety', '--expires-in', '90m']);
    assert.deepEqual(ninety.body, { did: 2004, name: 'Ninety', days: '0', hours: '1', minutes: '30' });
  });

  test('create: one target and at most one expiry mode, else 2 with nothing sent', async () => {
    await h.expectUsage(['shares', 'create', '--name', 'x'], '--device');
    await h.expectUsage(['shares', 'create'], 'a share needs a target: give --device DID or --group GID and --name');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--group', '101', '--name', 'x'], '--device and --group');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--name', 'x', '--expires', '1d', '--expires-in', '1d'], '--expires and --expires-in');
    await h.expectUsage(['shares', 'create', '--device', 'van7', '--name', 'x'], '"van7"');
    await h.expectUsage(['shares', 'create', '--group', '0', '--name', 'x'], '"0"');
    await h.expectUsage(['shares', 'create', '--device', '2004'], '--name');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--name', 'x', '--expires', '2001-01-01'], 'not in the future');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--name', 'x', '--expires', 'tomorrowish'], '"tomorrowish"');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--name', 'x', '--expires-in', '2x'], '"2x"');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--name', 'x', '--expires-in', '0m'], '"0m"');
    await h.expectUsage(['shares', 'create', '--device', '2004', '--name', 'x', '--expires-in', '90s'], '"90s"');
  });

  test('create for an unknown device → 4', async () => {
    const r = await h.run(['shares', 'create', '--device', '999999', '--name', 'ghost']);
    assert.equal(r.code, 4, r.stderr);
  });

  test('get: one share; unknown → 4; malformed sid → 2 with nothing sent', async () => {
    const [first] = await h.json<ShareRec[]>(['shares', 'list']);
    assert.ok(first);
    h.sandbox.clearRequests();
    const one = await h.json<ShareRec>(['shares', 'get', first.sid]);
    assert.deepEqual(one, first);
    assert.deepEqual(h.sent(), [`GET /v2/location-shares/${first.sid}`]);
    assert.equal((await h.run(['shares', 'get', 'NoSuchShare1'])).code, 4);
    await h.expectUsage(['shares', 'get', 'a/b'], 'a/b');
    await h.expectUsage(['shares', 'get', 'x'.repeat(65)], 'x'.repeat(65));
    await h.expectUsage(['shares', 'get', 'sp ace'], 'sp ace');
  });

  test('update: PATCH carries only name and expiration', async () => {
    const { share } = await create(['--device', '2004', '--name', 'Before']);
    h.sandbox.clearRequests();
    const updated = await h.json<ShareRec>(['shares', 'update', share.sid, '--name', 'After', '--expires', '2099-01-01']);
    assert.equal(updated.name, 'After');
    assert.equal(updated.expiration, Date.UTC(2099, 0, 1) / 1000);
    assert.deepEqual(h.sent(), [`PATCH /v2/location-shares/${share.sid}`]);
    assert.deepEqual(h.sandbox.requests[0]?.body, { name: 'After', expiration: Date.UTC(2099, 0, 1) / 1000 });
    h.sandbox.clearRequests();
    await h.json<ShareRec>(['shares', 'update', share.sid, '--name', 'Renamed']);
    assert.deepEqual(h.sandbox.requests[0]?.body, { name: 'Renamed' });
    await h.expectUsage(['shares', 'update', share.sid], 'nothing to change');
    await h.expectUsage(['shares', 'update', share.sid, '--expires', 'never'], 'never');
    await h.expectUsage(['shares', 'update', share.sid, '--expires', '1 h ago'], 'not in the future');
    await h.expectUsage(['shares', 'update', 'bad!sid', '--name', 'x'], 'bad!sid');
    assert.equal((await h.run(['shares', 'update', 'NoSuchShare1', '--name', 'x'])).code, 4);
  });

  test('url and embed: printed without any request; default size 420×380, no border', async () => {
    h.sandbox.clearRequests();
    const origin = new URL(h.sandbox.url).origin;
    const url = await h.run(['shares', 'url', 'Abc_123-x']);
    assert.equal(url.code, 0, url.stderr);
    assert.equal(url.stdout, `${origin}/share/Abc_123-x\n`);
    const embed = await h.run(['shares', 'embed', 'Abc_123-x']);
    assert.equal(embed.code, 0, embed.stderr);
    assert.match(embed.stdout, /^<iframe [^>]*><\/iframe>\n$/);
    assert.ok(embed.stdout.includes(`src="${origin}/share/Abc_123-x"`));
    assert.ok(embed.stdout.includes('width="420"') && embed.stdout.includes('height="380"'));
    assert.ok(embed.stdout.includes('style="border:0"') && embed.stdout.includes('frameborder="0"'));
    const sized = await h.json<{ width: number; height: number; html: string; url: string }>(['shares', 'embed', 'Abc_123-x', '--width', '640', '--height', '480']);
    assert.deepEqual([sized.width, sized.height], [640, 480]);
    assert.ok(sized.html.includes('width="640"') && sized.html.includes('height="480"'));
    assert.deepEqual(h.sent(), [], 'url and embed send nothing');
  });

  test('url follows the configured share address (TRACKCTL_SHARE_URL)', async () => {
    const r = await h.run(['shares', 'url', 'Abc123'], { env: { TRACKCTL_SHARE_URL: 'https://share.example.com' } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'https://share.example.com/share/Abc123\n');
  });

  test('url and embed validate before printing', async () => {
    await h.expectUsage(['shares', 'url', '../x'], '../x');
    await h.expectUsage(['shares', 'embed', 'Abc123', '--width', '0'], '--width "0"');
    await h.expectUsage(['shares', 'embed', 'Abc123', '--height', '12.5'], '--height "12.5"');
    await h.expectUsage(['shares', 'embed', 'Abc"123'], 'Abc');
  });

  test('delete: refuses without --yes; a malformed sid → 2 with nothing sent', async () => {
    await h.expectUsage(['shares', 'delete', 'Abc123'], '--yes');
    await h.expectUsage(['shares', 'delete', 'Abc123', 'a b', '--yes'], 'a b');
  });

  test('delete: one unknown sid → 7, the others deleted', async () => {
    const a = (await create(['--device', '2004', '--name', 'A'])).share;
    const b = (await create(['--group', '101', '--name', 'B'])).share;
    h.sandbox.clearRequests();
    const r = await h.run(['shares', 'delete', a.sid, 'NoSuchShare1', b.sid, '--yes']);
    assert.equal(r.code, 7, r.stderr);
    assert.deepEqual(h.sent(), [`DELETE /v2/location-shares/${a.sid}`, 'DELETE /v2/location-shares/NoSuchShare1', `DELETE /v2/location-shares/${b.sid}`]);
    assert.match(r.stderr, /NoSuchShare1/);
    for (const sid of [a.sid, b.sid]) assert.equal((await h.run(['shares', 'get', sid])).code, 4);
  });

  test('help lists every verb with examples', async () => {
    for (const verb of ['list', 'get', 'create', 'update', 'delete', 'url', 'embed']) {
      const r = await h.run(['shares', verb, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Examples:\n {2}\$ /);
    }
  });
});

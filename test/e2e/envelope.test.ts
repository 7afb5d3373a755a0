/**
 * A 200 reply whose JSON is not the service's (a proxy's or a gateway's page, the sandbox's
 * `portal` fault): an error naming the status, never an empty list with exit 0.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/cli.js';

async function setFaults(h: Harness, spec: string): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec }) });
  assert.equal(res.status, 200, await res.text());
}

const FLEET = `apiVersion: trackctl/v1
kind: Fleet
devices:
  - trackerID: "490154203237518"
    name: Ford Transit 21
    type: FMB920
`;

describe('a 200 reply with neither success, result nor error', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  const portalRun = async (args: string[]) => {
    await setFaults(h, 'portal=1');
    try {
      return await h.run(args);
    } finally {
      await setFaults(h, '');
    }
  };

  for (const args of [['devices', 'list', '-o', 'json'], ['groups', 'list'], ['units', '-o', 'json'], ['history', '2004', '--from', '1700000000', '-o', 'ndjson']]) {
    test(`${args.slice(0, 2).join(' ')}: exit 1 naming the status, nothing on stdout`, async () => {
      const r = await portalRun(args);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /status 200/);
      assert.match(r.stderr, /neither "success"/);
      assert.equal(r.stdout, '', 'no empty list printed');
    });
  }

  test('devices delete: the proxy page is not taken for a deletion', async () => {
    const r = await portalRun(['devices', 'delete', '2004', '--yes']);
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /status 200/);
    assert.equal((await h.json<{ did: number }>(['devices', 'get', '2004'])).did, 2004, 'the device is still there');
  });

  test('apply --dry-run does not plan to create what already exists', async () => {
    const file = h.file('fleet.yaml', FLEET);
    assert.equal((await h.run(['apply', '-f', file, '--yes'])).code, 0);
    const r = await portalRun(['apply', '-f', file, '--dry-run', '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /status 200/);
    assert.doesNotMatch(r.stdout, /create/);
  });
});

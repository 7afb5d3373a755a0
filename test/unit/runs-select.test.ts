/**
 * resolveUnits over a fake client: the requests of a selection go out at once (no round trip
 * waits for another), the units are those the replies name, and a failure is the one the
 * requests made in turn would have given (the group's first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Api } from '../../src/api/client.js';
import type { HttpResponse } from '../../src/api/http.js';
import { ApiError, NotFoundError } from '../../src/errors.js';
import { resolveUnits } from '../../src/runs/select.js';

const ok = (body: unknown): HttpResponse => ({ status: 200, headers: {}, text: JSON.stringify({ success: 'ok', ...(body as object) }) });

const ALL = {
  devices: { 2004: { did: 2004, name: 'Van', lastGPSTimestamp: 1_795_000_000 } },
  sensors: { 3001: { did: 3001, name: 'Door' } },
  trackedUsers: { 501: { uid: 501, name: 'Ann' } }, // no did: GET /users/ supplies it
  dispatchers: {},
};
const USERS = { result: { 501: { uid: 501, name: 'Ann', userType: 'trackedUser', did: 2101 }, 502: { uid: 502, name: 'Bo', userType: 'dispatcher' } } };
const GROUP = { result: { 7: { gid: 7, name: 'West', groupMembers: [3001, 501], groupViewers: [] } } };

/**
 * A client whose replies are held until `release` is called: `asked` lists the paths requested
 * so far, so a test sees which requests went out before any reply came back.
 */
function heldClient(replies: Record<string, () => HttpResponse>): { api: Api; asked: string[]; release: () => void } {
  const asked: string[] = [];
  const waiting: Array<() => void> = [];
  const api = {
    call: (req: { path: string }) => {
      asked.push(req.path);
      const reply = replies[req.path];
      return new Promise<HttpResponse>((resolve, reject) => {
        waiting.push(() => {
          try {
            if (!reply) throw new Error(`unexpected request ${req.path}`);
            resolve(reply());
          } catch (err) {
            reject(err);
          }
        });
      });
    },
  } as unknown as Api;
  return { api, asked, release: () => waiting.splice(0).forEach((w) => w()) };
}

/** Lets every pending continuation run (a few rounds of microtasks and one macrotask): no reply is due before release(). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('every unit: GET /all-units/ and GET /users/ go out together, before either answers', async () => {
  const c = heldClient({ '/all-units/': () => ok(ALL), '/users/': () => ok(USERS) });
  const units = resolveUnits(c.api, { kind: 'all' });
  await settle();
  assert.deepEqual(c.asked, ['/all-units/', '/users/']);
  c.release();
  assert.deepEqual(
    (await units).map((u) => [u.did, u.category]),
    [[2004, 'device'], [2101, 'trackedUser'], [3001, 'sensor']],
  );
});

test('a group: the group, the units and the users together; its members (a tracked user through its uid)', async () => {
  const c = heldClient({ '/v2/groups/7': () => ok(GROUP), '/all-units/': () => ok(ALL), '/users/': () => ok(USERS) });
  const units = resolveUnits(c.api, { kind: 'group', gid: 7 });
  await settle();
  assert.deepEqual([...c.asked].sort(), ['/all-units/', '/users/', '/v2/groups/7']);
  c.release();
  assert.deepEqual((await units).map((u) => u.did), [2101, 3001]);
});

test('a category without tracked users asks for no users; the users reply is not waited for when /all-units/ names every did', async () => {
  const devices = heldClient({ '/all-units/': () => ok(ALL) });
  const units = resolveUnits(devices.api, { kind: 'category', category: 'device' });
  await settle();
  devices.release();
  assert.deepEqual((await units).map((u) => u.did), [2004]);
  assert.deepEqual(devices.asked, ['/all-units/']);

  // /users/ fails, but it is not needed: the selection stands, and nothing is left unhandled.
  const withDid = { ...ALL, trackedUsers: { 501: { uid: 501, name: 'Ann', did: 2101 } } };
  const c = heldClient({ '/all-units/': () => ok(withDid), '/users/': () => { throw new ApiError('users are not for you', 403); } });
  const all = resolveUnits(c.api, { kind: 'all' });
  await settle();
  c.release();
  assert.deepEqual((await all).map((u) => u.did), [2004, 2101, 3001]);
});

test('a failure is the one asked for first: a group that does not exist, whatever else failed', async () => {
  const c = heldClient({
    '/v2/groups/9': () => { throw new NotFoundError('no group 9'); },
    '/all-units/': () => { throw new ApiError('all units failed', 500); },
    '/users/': () => { throw new ApiError('users failed', 500); },
  });
  const units = resolveUnits(c.api, { kind: 'group', gid: 9 });
  await settle();
  c.release();
  await assert.rejects(units, NotFoundError);

  const d = heldClient({ '/all-units/': () => { throw new ApiError('all units failed', 500); }, '/users/': () => ok(USERS) });
  const all = resolveUnits(d.api, { kind: 'all' });
  await settle();
  d.release();
  await assert.rejects(all, /all units failed/);
});

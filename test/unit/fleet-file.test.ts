import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSource } from '../../src/fleet/load.js';
import { validateFleet } from '../../src/fleet/validate.js';

const read = (rel: string): string => readFileSync(new URL(`../../${rel}`, import.meta.url), 'utf8');

test('docs/fleet.example.yaml is valid and points at the schema', async () => {
  const text = read('docs/fleet.example.yaml');
  assert.match(text.split('\n')[0] ?? '', /^# yaml-language-server: \$schema=\.\/fleet\.schema\.json$/);
  const { doc, problems } = await parseSource(text, 'docs/fleet.example.yaml');
  assert.deepEqual(problems, []);
  const checked = validateFleet(doc);
  assert.deepEqual(checked.problems, []);
  assert.equal(checked.fleet.devices?.length, 2);
  assert.deepEqual(checked.fleet.shares?.[0]?.spec.target, { kind: 'device', key: '357494414214035' });
});

test('the JSON Schema names the same fields the loader accepts', () => {
  const schema = JSON.parse(read('docs/fleet.schema.json')) as {
    properties: Record<string, unknown>;
    $defs: Record<string, { properties?: Record<string, unknown> }>;
  };
  assert.deepEqual(Object.keys(schema.properties), ['apiVersion', 'kind', 'groups', 'devices', 'sensors', 'users', 'shares']);
  const fields = (def: string): string[] => Object.keys(schema.$defs[def]?.properties ?? {}).sort();
  assert.deepEqual(fields('group'), ['name', 'renamedFrom', 'viewers']);
  assert.deepEqual(fields('device'), ['active', 'groups', 'name', 'simPhone', 'trackerID', 'type']);
  assert.deepEqual(fields('sensor'), ['active', 'groups', 'name', 'simPhone', 'type', 'uniqueID']);
  assert.deepEqual(fields('user'), ['active', 'email', 'groups', 'name', 'simPhone', 'type', 'viewerGroups']);
  assert.deepEqual(fields('share'), ['device', 'expires', 'group', 'name', 'renamedFrom', 'sensor', 'user']);
  // Every field the schema lists is accepted by the loader (unknown fields are errors there).
  const { problems } = validateFleet({
    apiVersion: 'trackctl/v1', kind: 'Fleet',
    groups: [{ name: 'G', renamedFrom: 'F', viewers: ['a@example.com'] }],
    devices: [{ trackerID: '1', name: 'D', type: 'T', simPhone: '+1555', active: true, groups: ['G'] }],
    sensors: [{ uniqueID: 'S1', name: 'S', type: 'T', simPhone: '+1555', active: false, groups: [] }],
    users: [{ email: 'a@example.com', name: 'A', type: 'trackedUser', simPhone: '+1555', active: true, groups: ['G'], viewerGroups: ['G'] }],
    shares: [{ name: 'X', renamedFrom: 'Y', user: 'a@example.com', expires: '2030-01-01' }],
  });
  assert.deepEqual(problems, []);
});

test('YAML syntax errors name the line', async () => {
  const { problems } = await parseSource('groups:\n  - name: A\n  name: B\n', 'x.yaml');
  assert.ok(problems.length > 0);
  assert.match(problems[0]?.path ?? '', /^line \d+:\d+$/);
});

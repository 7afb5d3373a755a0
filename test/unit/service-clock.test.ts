/** The service's clock: a reply's Date header believed only as far as the service's data or this machine's clock bears it out. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClock } from '../../src/runs/service-clock.js';

test('service clock: a Date header ahead of the data and of this machine is brought back; never raised', () => {
  let local = 10_000_000;
  const clock = new ServiceClock(() => local);
  assert.equal(clock.at(undefined), undefined, 'no header, no clock');
  assert.equal(clock.at(10_000 + 3600), 10_000, 'a proxy an hour ahead: this machine\'s clock');
  assert.equal(clock.at(9_000), 9_000, 'a header behind is taken as it is');
  local = 1_000_000; // this machine an hour and a half behind
  assert.equal(clock.at(10_000), 1_000, 'nothing proves more than this machine');
  clock.saw(9_500);
  clock.saw(null);
  clock.saw(Number.NaN);
  assert.equal(clock.at(10_000), 9_500, 'the newest report the service showed proves its clock had reached it');
  assert.equal(clock.at(9_200), 9_200);
});

/** The pure rules behind the client's tolerance (src/api/tolerant.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectionValues, errorInSuccess, toNumber, tolerantFeature, tolerantShare, tolerantUnit, tolerantUser } from '../../src/api/tolerant.js';

test('toNumber: numeric strings become numbers; "" is null; anything else is kept', () => {
  const cases: Array<[unknown, unknown]> = [
    ['2004', 2004], [' 61.5 ', 61.5], ['-84.25', -84.25], ['1e3', 1000], ['.5', 0.5], ['', null], ['  ', null],
    ['12abc', '12abc'], ['0x10', '0x10'], ['never', 'never'], ['Infinity', 'Infinity'], [7, 7], [null, null], [undefined, undefined],
  ];
  for (const [input, output] of cases) assert.equal(toNumber(input), output, JSON.stringify(input));
});

test('records: known numeric fields and id lists normalised, everything else untouched', () => {
  const unit = tolerantUnit({ did: '7', lastBatteryLevel: '', groupMember: null, trackerID: '0012', firmware: '1.0', odometerKM: 'n/a' });
  assert.deepEqual(unit, { did: 7, lastBatteryLevel: null, groupMember: [], trackerID: '0012', firmware: '1.0', odometerKM: 'n/a' });
  const user = tolerantUser({ uid: '3', groupViewer: ['101', 102], groupMember: {}, device: { did: '9', groupMember: ['5'] }, simPhoneNumber: '0049' });
  assert.deepEqual(user, { uid: 3, groupViewer: [101, 102], groupMember: [], device: { did: 9, groupMember: [5] }, simPhoneNumber: '0049' });
  assert.deepEqual(tolerantShare({ sid: 'abc', expiration: '1800000000', gid: '5' }), { sid: 'abc', expiration: 1800000000, gid: 5 });
  assert.deepEqual(tolerantShare({ sid: 'abc', expiration: 'never' }), { sid: 'abc', expiration: 'never' });
  const f = tolerantFeature({ properties: { date: '100', reportType: 'weird', reportValue: '12' }, geometry: { coordinates: ['1.5', '2'] } });
  assert.deepEqual(f, { properties: { date: 100, reportType: 'weird', reportValue: '12' }, geometry: { coordinates: [1.5, 2] } });
});

test('collectionValues: keyed object, array, null or absent; undefined for anything else', () => {
  assert.deepEqual(collectionValues({ 1: 'a', 2: 'b' }), ['a', 'b']);
  assert.deepEqual(collectionValues(['a']), ['a']);
  assert.deepEqual(collectionValues(null), []);
  assert.deepEqual(collectionValues(undefined), []);
  assert.equal(collectionValues('none'), undefined);
  assert.equal(collectionValues(0), undefined);
});

test('errorInSuccess: the service text of an error body; nothing for a success or a token reply', () => {
  assert.equal(errorInSuccess({ success: 'Done', error: 'ignored' }), undefined);
  assert.equal(errorInSuccess({ access_token: 'x', refresh_token: 'y', expires_in: 3600 }), undefined);
  assert.equal(errorInSuccess({ result: {}, error: null }), undefined);
  assert.equal(errorInSuccess({ error: 'Quota exceeded' }), 'Quota exceeded');
  assert.equal(errorInSuccess({ error: 'invalid_grant', error_description: 'Refresh token expired' }), 'Refresh token expired');
  assert.equal(errorInSuccess({ error: { code: 9, message: 'Locked' } }), 'Locked');
  assert.equal(errorInSuccess({ errors: ['a', { message: 'b' }] }), 'a; b');
  assert.equal(errorInSuccess({ success: false, message: 'No such unit' }), 'No such unit');
  assert.match(errorInSuccess({ success: false }) ?? '', /without a message/);
});

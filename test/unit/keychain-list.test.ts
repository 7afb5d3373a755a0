/**
 * The keychain's listing when another client deletes an item meanwhile (a write probe of a
 * concurrent run, a logout): the Secret Service lists its items, then each is read, and an item
 * deleted in between fails the whole listing. The listing is tried again then, and only then.
 *
 * The race cannot be had on demand from a real Secret Service: a test that churned items with
 * secret-tool beside a listing loop made gnome-keyring-daemon itself drop off the bus once in a
 * few runs under load (NoReply), failing the keychain tests after it. So the binding is a fake
 * here, failing with the errors the real one gave in that race (recorded from
 * @napi-rs/keyring's findCredentialsAsync against gnome-keyring), word for word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeychainStore, KeychainUnavailableError } from '../../src/auth/store/keychain.js';

type KeyringModule = ConstructorParameters<typeof KeychainStore>[0];

const VANISHED = [
  'zbus fdo error: org.freedesktop.DBus.Error.UnknownMethod: No such interface “org.freedesktop.DBus.Properties” on object at path /org/freedesktop/secrets/collection/login/3',
  'zbus error: org.freedesktop.DBus.Error.UnknownMethod: No such interface “org.freedesktop.Secret.Item” on object at path /org/freedesktop/secrets/collection/login/11',
];
const NO_REPLY = 'zbus error: org.freedesktop.DBus.Error.NoReply: Message recipient disconnected from message bus without replying';

/** A binding whose listing fails with `failures` in turn, then lists `accounts`. */
function keyring(failures: readonly string[], accounts: readonly string[]): { module: KeyringModule; calls: () => number } {
  let calls = 0;
  const module = {
    findCredentialsAsync: async () => {
      const failure = failures[calls++];
      if (failure !== undefined) throw new Error(failure);
      return accounts.map((account) => ({ account, password: '{}' }));
    },
  } as unknown as KeyringModule;
  return { module, calls: () => calls };
}

test('a listing that meets a deleted item lists again, and probes are left out', async () => {
  const fake = keyring([VANISHED[0] as string, VANISHED[1] as string], ['work', '__probe__-1-ab', 'default']);
  assert.deepEqual(await new KeychainStore(fake.module, 1000).profiles(), ['default', 'work']);
  assert.equal(fake.calls(), 3);
});

test('a deleted item every time: the listing gives up after five tries, naming the failure', async () => {
  const fake = keyring(Array.from({ length: 10 }, (_, i) => VANISHED[i % 2] as string), ['default']);
  await assert.rejects(new KeychainStore(fake.module, 1000).profiles(), (err: unknown) => {
    assert.ok(err instanceof KeychainUnavailableError);
    assert.equal(err.message, `keychain list failed: ${VANISHED[0]}`); // the fifth try's
    return true;
  });
  assert.equal(fake.calls(), 5);
});

test('any other failure is not tried again', async () => {
  for (const failure of [NO_REPLY, 'zbus error: org.freedesktop.DBus.Error.UnknownMethod: No such interface “org.freedesktop.Secret.Service” on object at path /org/freedesktop/secrets']) {
    const fake = keyring([failure], ['default']);
    await assert.rejects(new KeychainStore(fake.module, 1000).profiles(), KeychainUnavailableError);
    assert.equal(fake.calls(), 1, failure);
  }
});

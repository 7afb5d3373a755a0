/**
 * Alias expansion: word splitting checked against a real sh on messy lines, placeholders,
 * appended arguments, shell aliases, and the names an alias may not take.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { UsageError } from '../../src/errors.js';
import { expandAlias, splitWords, validateAliasName, validateExpansion } from '../../src/commands/alias/expand.js';

/** How sh splits the line (no variables or globs in the corpus, so only quoting matters). */
function shWords(line: string): string[] {
  const r = spawnSync('sh', ['-c', `set -f; for w in ${line}; do printf '%s\\0' "$w"; done`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\0').slice(0, -1);
}

test('words are split as sh splits them', () => {
  const corpus = [
    'devices list --fields did,name',
    '  devices   list\t--active  ',
    "report trips --from 'last monday'",
    'history 2004 --types "sos,crash" -o ndjson',
    `api /v2/groups/ -d '{"name": "Vans & Trucks"}'`,
    `units --fields "a b"'c d'e`,
    'say \\"quoted\\" and\\ spaced',
    `devices get "with \\"escapes\\" and \\\\ backslash"`,
    `"" '' empty`,
    `it's"fine"`.replace("'", "\\'"),
    'unicode "Fahrzeug Straße" é',
  ];
  for (const line of corpus) assert.deepEqual(splitWords(line), shWords(line), line);
});

test('an unclosed quote is a usage error', () => {
  for (const bad of ["devices list --name 'open", 'history "2004']) {
    assert.throws(() => splitWords(bad), UsageError, bad);
    assert.throws(() => validateExpansion(bad), UsageError, bad);
  }
  assert.throws(() => validateExpansion('   '), /empty/);
  assert.throws(() => validateExpansion('!'), /empty/);
});

test('$1…$9 take the arguments; the unused ones are appended in order', () => {
  assert.deepEqual(expandAlias('a', 'devices list', ['--active', '-o', 'json']), { kind: 'argv', argv: ['devices', 'list', '--active', '-o', 'json'] });
  assert.deepEqual(expandAlias('t', 'report trips $1 --from $2', ['2004', 'today', '--tz', 'UTC']), {
    kind: 'argv',
    argv: ['report', 'trips', '2004', '--from', 'today', '--tz', 'UTC'],
  });
  // Used twice, used inside a word, out of order.
  assert.deepEqual(expandAlias('x', "api /v2/groups/$2 --note '$1-$1'", ['a b', '7']), { kind: 'argv', argv: ['api', '/v2/groups/7', '--note', 'a b-a b'] });
  // An argument is one word whatever it holds: no second splitting.
  assert.deepEqual(expandAlias('g', 'devices get $1', ['1 2']), { kind: 'argv', argv: ['devices', 'get', '1 2'] });
  assert.throws(() => expandAlias('t', 'report trips $1 --from $3', ['2004', 'x']), /alias t needs at least 3 arguments/);
});

test('a ! alias is a script for sh with the arguments as they are', () => {
  assert.deepEqual(expandAlias('s', '!trackctl devices list | grep "$1"', ['Van', 'x y']), { kind: 'shell', script: 'trackctl devices list | grep "$1"', args: ['Van', 'x y'] });
});

test('alias names: plain words, never a command', () => {
  const commands = ['devices', 'wait', 'alias', 'help'];
  assert.equal(validateAliasName('low-bat_2', commands), 'low-bat_2');
  for (const bad of ['', '-x', '9lives', 'a b', 'é', 'x'.repeat(65)]) assert.throws(() => validateAliasName(bad, commands), /invalid alias name/, bad);
  for (const cmd of commands) assert.throws(() => validateAliasName(cmd, commands), /may not shadow/, cmd);
});

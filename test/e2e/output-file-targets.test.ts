/**
 * --output-file writes to what it names the way a shell's `> FILE` would, never replacing what
 * it does not own: our own stdout stays stdout, a device, FIFO or socket is written through, a
 * symbolic link is followed to its file (replaced there; the link stays), and only a regular file
 * or a new path is replaced by temporary + rename. Devices are made with mknod (as root) in a
 * throwaway directory, so that a regression can never replace the machine's /dev entries.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';

const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
const WINDOW = ['--from', String(Date.UTC(2026, 10, 25, 9, 0, 0) / 1000), '--to', String(Date.UTC(2026, 10, 26, 9, 0, 0) / 1000)];
const HISTORY = ['history', '2004', ...WINDOW, '-o', 'ndjson'];
const temporaries = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe('--output-file and what it names', () => {
  let h: Harness;
  let expected = '';
  before(async () => {
    h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400, inProcess: true });
    const plain = await h.run(HISTORY);
    assert.equal(plain.code, 0, plain.stderr);
    expected = plain.stdout;
    assert.ok(expected.split('\n').length > 10, 'the window holds reports');
  });
  after(async () => h.close());

  test('/dev/stdout (a link to /proc/self/fd/1) is stdout: on a pipe, and on a file opened for append', async () => {
    const stdoutLink = join(h.dir, 'stdout');
    symlinkSync('/proc/self/fd/1', stdoutLink);
    // Spawned: /proc/self/fd/1 is the process's own stdout.
    const piped = await h.spawn([...HISTORY, '--output-file', stdoutLink]);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, expected, 'the data arrives on stdout');
    const appended = join(h.dir, 'appended.ndjson');
    writeFileSync(appended, '{"earlier":true}\n');
    const run = spawnTo(h, [...HISTORY, '--output-file', stdoutLink], appended);
    assert.equal(await run.exit, 0, run.err());
    assert.equal(readFileSync(appended, 'utf8'), `{"earlier":true}\n${expected}`, '>> keeps what was there; the data follows it');
    assert.equal(readlinkSync(stdoutLink), '/proc/self/fd/1', 'the link is still a link');
    assert.deepEqual(temporaries(h.dir), []);
  });

  describe('devices (mknod, as root)', () => {
    let devices = '';
    before(() => {
      devices = join(h.dir, 'dev');
      spawnSync('mkdir', [devices]);
      const made = [spawnSync('mknod', [join(devices, 'null'), 'c', '1', '3']), spawnSync('mknod', [join(devices, 'full'), 'c', '1', '7'])];
      if (made.some((r) => r.status !== 0)) devices = '';
    });

    test('a null device takes the data and stays a device; a full one is exit 1 naming ENOSPC, and stays a device', async (t) => {
      if (devices === '') return t.skip('cannot make device nodes here (needs root)');
      const nul = join(devices, 'null');
      const ok = await h.run([...HISTORY, '--output-file', nul]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.stdout, '');
      assert.ok(lstatSync(nul).isCharacterDevice(), 'still a character device');
      const full = join(devices, 'full');
      const failed = await h.run([...HISTORY, '--output-file', full]);
      assert.equal(failed.code, 1, failed.stderr);
      assert.match(failed.stderr, new RegExp(`error: cannot write --output-file ${full}: no space left on device \\(ENOSPC\\)`));
      assert.ok(lstatSync(full).isCharacterDevice(), 'still a character device');
      assert.deepEqual(temporaries(devices), []);
    });
  });

  test('a FIFO: its reader receives every byte, and it stays a FIFO', async () => {
    const fifo = join(h.dir, 'reports.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    // A reader in its own process: its open() waits for the writer, as a consumer's would.
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    let received = '';
    reader.stdout.on('data', (d: Buffer) => (received += d.toString()));
    const readerDone = new Promise((resolve) => reader.on('close', resolve));
    const r = await h.run([...HISTORY, '--output-file', fifo]);
    const stillFifo = lstatSync(fifo).isFIFO();
    // Replaced by a file, the FIFO has no writer any more: its reader would wait for ever.
    if (!stillFifo) reader.kill();
    await readerDone;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(stillFifo, 'the FIFO is still a FIFO');
    assert.equal(received, expected, 'the reader got every byte');
    assert.deepEqual(temporaries(h.dir), []);
  });

  test('a Unix socket: the listener receives every byte, and it stays a socket', async () => {
    const path = join(h.dir, 'reports.sock');
    let received = '';
    let ended: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const server = createServer((conn) => {
      conn.on('data', (d: Buffer) => (received += d.toString()));
      conn.on('end', ended);
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const r = await h.run([...HISTORY, '--output-file', path]);
    const stillSocket = lstatSync(path).isSocket();
    if (stillSocket) await done;
    await new Promise((resolve) => server.close(resolve));
    assert.equal(r.code, 0, r.stderr);
    assert.ok(stillSocket, 'still a socket');
    assert.equal(received, expected);
  });

  test('a symbolic link is followed: its target is replaced (atomically, beside it) and the link stays a link', async () => {
    const real = h.file('real.ndjson', 'old\n');
    const link = join(h.dir, 'link.ndjson');
    symlinkSync(real.slice(h.dir.length + 1), link); // relative, as links usually are
    const r = await h.run([...HISTORY, '--output-file', link]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
    assert.equal(readFileSync(real, 'utf8'), expected, 'its target holds the data');
    // A link to a file not there yet: the file is created where the link points.
    const dangling = join(h.dir, 'dangling.ndjson');
    const later = join(h.dir, 'later.ndjson');
    symlinkSync(later, dangling);
    const again = await h.run([...HISTORY, '--output-file', dangling]);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(lstatSync(dangling).isSymbolicLink());
    assert.equal(readFileSync(later, 'utf8'), expected);
    assert.deepEqual(temporaries(h.dir), []);
  });

  test('a regular file is still replaced by a new one (temporary + rename), never written in place', async () => {
    const file = h.file('regular.ndjson', 'old\n');
    const before = statSync(file).ino;
    const r = await h.run([...HISTORY, '--output-file', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(file, 'utf8'), expected);
    assert.notEqual(statSync(file).ino, before, 'a new file was renamed into place');
    assert.deepEqual(temporaries(h.dir), []);
  });
});

/**
 * Man pages and completion scripts: regenerated into a temporary directory and
 * compared byte for byte with the committed files (stale → fail), linted by
 * mandoc, and checked to document every command and option of the tree.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { createContext } from '../../src/context.js';
import { commandPath, visibleCommands, visibleOptions, walkCommands } from '../../src/completion/tree.js';
import { ROOT } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';
import { memoryIO } from '../helpers/io.js';

function tree(): Command {
  return buildProgram(createContext(memoryIO(), {}, '0.0.0-test'), '0.0.0-test');
}

const list = (dir: string): string[] => readdirSync(dir).sort();
const roffFlag = (flag: string): string => flag.replace(/-/g, '\\-');

describe('generated man pages and completion scripts', () => {
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), 'trackctl-gen-'));
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/gen.mjs'), '--no-build', '--out', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  test('the committed completions/ and man/ are up to date (npm run gen)', () => {
    for (const dir of ['completions', 'man']) {
      assert.deepEqual(list(join(ROOT, dir)), list(join(out, dir)), `${dir}/ has other files than the generator writes: npm run gen`);
      for (const name of list(join(out, dir))) {
        const fresh = readFileSync(join(out, dir, name));
        const committed = readFileSync(join(ROOT, dir, name));
        assert.ok(fresh.equals(committed), `${dir}/${name} is stale: npm run gen`);
      }
    }
  });

  test('the committed docs/reference.md is up to date (npm run gen)', () => {
    const fresh = readFileSync(join(out, 'docs', 'reference.md'), 'utf8');
    assert.equal(readFileSync(join(ROOT, 'docs', 'reference.md'), 'utf8'), fresh, 'docs/reference.md is stale: npm run gen');
  });

  test('docs/reference.md documents every command with its usage, and declared options with kind and default', () => {
    const text = readFileSync(join(out, 'docs', 'reference.md'), 'utf8');
    for (const cmd of walkCommands(tree()).filter((c) => c.parent && c.name() !== 'help' && visibleCommands(c).length === 0)) {
      assert.ok(text.includes(`\n## trackctl ${commandPath(cmd)}\n`), `a section for trackctl ${commandPath(cmd)}`);
    }
    assert.match(text, /\| `--concurrency <n>` \| int \| 8 \| units fetched at once, 1-64 \|/);
    assert.match(text, /\| `--layout <layout>` \| choice: files, hive \|/);
    assert.match(text, /\$ trackctl history --group 101 --from 2026-11-24/);
  });

  test('generation is deterministic', () => {
    const again = mkdtempSync(join(tmpdir(), 'trackctl-gen-'));
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/gen.mjs'), '--no-build', '--out', again], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      for (const name of list(join(out, 'man'))) assert.ok(readFileSync(join(again, 'man', name)).equals(readFileSync(join(out, 'man', name))), name);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  test('package.json "man" lists every page, so npm install -g installs them', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man?: string[]; files?: string[] };
    const pages = JSON.parse(readFileSync(join(out, 'man-list.json'), 'utf8')) as string[];
    assert.deepEqual(pkg.man, pages);
    assert.ok(pkg.files?.includes('man') && pkg.files.includes('completions'));
  });

  test('mandoc -Tlint reports nothing on any page', (t) => {
    if (!needTool(t, 'mandoc')) return;
    for (const name of list(join(out, 'man'))) {
      const r = spawnSync('mandoc', ['-Tlint', join(out, 'man', name)], { encoding: 'utf8' });
      assert.equal(`${r.stdout}${r.stderr}`, '', `mandoc -Tlint ${name}`);
      assert.equal(r.status, 0, name);
    }
  });

  test('trackctl(1) plus one page per command group, with the standard sections', () => {
    const root = tree();
    const expected = ['trackctl.1', ...visibleCommands(root).map((c) => `trackctl-${c.name()}.1`)].sort();
    assert.deepEqual(list(join(out, 'man')), expected);
    for (const name of expected) {
      const text = readFileSync(join(out, 'man', name), 'utf8');
      for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'ENVIRONMENT', 'FILES', 'EXIT STATUS', 'SEE ALSO']) {
        assert.match(text, new RegExp(`^\\.SH ${section}$`, 'm'), `${name}: ${section}`);
      }
      assert.match(text, /^\.TH TRACKCTL\S* 1 \d{4}-\d\d-\d\d "trackctl 0\.1\.0"/m, `${name}: .TH with a fixed date and the version`);
      for (const code of ['0', '1', '2', '3', '4', '6', '7', '130']) assert.match(text, new RegExp(`^\\\\fB${code}\\\\fR$`, 'm'), `${name}: exit ${code}`);
      assert.ok(text.includes('TRACKCTL_CREDENTIAL_STORE') && text.includes('config.json') && text.includes('credentials.json'), name);
    }
  });

  test("every command's options, global options and examples appear on its group's page", () => {
    const root = tree();
    const globals = visibleOptions(root).filter((o) => o.long !== '--version').map((o) => roffFlag(o.long ?? ''));
    for (const top of visibleCommands(root)) {
      const text = readFileSync(join(out, 'man', `trackctl-${top.name()}.1`), 'utf8');
      for (const g of globals) assert.ok(text.includes(g), `trackctl-${top.name()}.1: global ${g}`);
      for (const cmd of walkCommands(top)) {
        const path = commandPath(cmd);
        assert.ok(text.includes(roffFlag(`trackctl ${path}`)), `${top.name()}: ${path}`);
        for (const o of visibleOptions(cmd)) assert.ok(text.includes(roffFlag(o.long ?? o.short ?? '')), `${path}: ${o.flags}`);
      }
    }
    const devices = readFileSync(join(out, 'man', 'trackctl-devices.1'), 'utf8');
    assert.match(devices, /^\.SH EXAMPLES$/m);
    assert.ok(devices.includes('$ trackctl devices list \\-\\-group 102') || devices.includes('$ trackctl devices list --group 102'));
  });
});

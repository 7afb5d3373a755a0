/** --template: gh's helpers, Go escapes in literals, and what a terminal gets (colour, links, no service escapes). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, strftimeUtc, TemplateError, type TemplateSettings } from '../../src/io/formats/template.js';

const NOW_MS = Date.UTC(2026, 10, 25, 12, 0, 0);
const piped: TemplateSettings = { tty: false, color: false, now: () => NOW_MS };
const terminal: TemplateSettings = { tty: true, color: true, now: () => NOW_MS };
const render = async (source: string, data: unknown, settings = piped): Promise<string> => (await compileTemplate(source, settings))(data);

test('fields, each, Go escapes in string literals', async () => {
  assert.equal(await render('{{#each .}}{{name}}{{"\\t"}}{{did}}{{"\\n"}}{{/each}}', [{ name: 'a', did: 1 }, { name: 'b', did: 2 }]), 'a\t1\nb\t2\n');
  assert.equal(await render('{{join "\\u2192" .}}', ['x', 'y']), 'x→y');
  assert.equal(await render('{{name}}', { name: '<b>&' }), '<b>&', 'nothing is HTML-escaped');
});

test('timeago, timefmt (strftime in UTC, unix seconds or ISO text), truncate, join', async () => {
  const t = Date.UTC(2026, 10, 25, 9, 5, 7) / 1000;
  assert.equal(await render('{{timeago t}}', { t }), '2 h ago');
  assert.equal(await render('{{timefmt "%Y-%m-%d %H:%M:%S %a %b %j" t}}', { t }), '2026-11-25 09:05:07 Wed Nov 329');
  assert.equal(await render('{{timefmt "%F" t}}', { t: '2026-11-25T09:05:07Z' }), '2026-11-25');
  assert.equal(await render('{{timefmt "" t}}', { t }), '2026-11-25T09:05:07Z');
  assert.equal(strftimeUtc('%s %% %q', t), `${t} % %q`);
  assert.equal(await render('{{truncate 5 name}}', { name: 'Ford Transit' }), 'Ford…');
  assert.equal(await render('{{truncate 20 name}}', { name: 'Ford' }), 'Ford');
  assert.equal(await render('{{join ", " groups}}', { groups: [1, 2, 3] }), '1, 2, 3');
});

test('tablerow: aligned on a terminal, tab-separated when piped; drawn at tablerender or at the end', async () => {
  const data = [{ a: 'x', b: 'long value', c: 1 }, { a: 'longer', b: 'v', c: 22 }];
  const source = '{{#each .}}{{tablerow a b c}}{{/each}}';
  assert.equal(await render(source, data), 'x\tlong value\t1\nlonger\tv\t22\n');
  assert.equal(await render(source, data, { ...terminal, color: false }), 'x       long value  1\nlonger  v           22\n');
  assert.equal(await render(`${source}{{tablerender}}after\n`, data), 'x\tlong value\t1\nlonger\tv\t22\nafter\n');
});

test('color and hyperlink: on a terminal with colour only', async () => {
  assert.equal(await render('{{color "red" name}}', { name: 'sos' }, terminal), '\x1b[31msos\x1b[39m');
  assert.equal(await render('{{color "green+bold" name}}', { name: 'ok' }, terminal), '\x1b[32m\x1b[1mok\x1b[22m\x1b[39m');
  assert.equal(await render('{{color "red" name}}', { name: 'sos' }), 'sos');
  assert.equal(await render('{{hyperlink url name}}', { url: 'https://x.test/a', name: 'A' }, terminal), '\x1b]8;;https://x.test/a\x1b\\A\x1b]8;;\x1b\\');
  assert.equal(await render('{{hyperlink url name}}', { url: 'https://x.test/a', name: 'A' }), 'A');
  assert.equal(await render('{{hyperlink url}}', { url: 'https://x.test/a' }), 'https://x.test/a');
  await assert.rejects(render('{{color "blinky" name}}', { name: 'x' }, terminal), /unknown style "blinky"/);
});

test('the data loses its control sequences, on a terminal or piped (raw only with --raw, piped); the helpers keep theirs', async () => {
  const evil = 'Van\x1b]52;c;aGk=\x07\x1b[2J!\u202e';
  assert.equal(await render('{{name}}', { name: evil }, terminal), 'Van!');
  assert.equal(await render('{{color "red" name}}', { name: evil }, terminal), '\x1b[31mVan!\x1b[39m');
  assert.equal(await render('{{name}}', { name: evil }), 'Van!', 'piped too');
  assert.equal(await render('{{name}}', { name: evil }, { ...piped, raw: true }), evil, '--raw, piped: the data as sent');
  assert.equal(await render('{{name}}', { name: evil }, { ...terminal, raw: true }), 'Van!', '--raw on a terminal: still stripped');
});

test('errors: syntax and unknown helpers when compiled; helper misuse when run; all TemplateError (exit 2)', async () => {
  await assert.rejects(compileTemplate('{{#each .}}', piped), (e: unknown) => e instanceof TemplateError && /Parse error/.test((e as Error).message));
  await assert.rejects(compileTemplate('{{shout name}}', piped), (e: unknown) => e instanceof TemplateError && /shout/.test((e as Error).message));
  await assert.rejects(render('{{truncate name}}', { name: 'x' }), (e: unknown) => e instanceof TemplateError && /truncate takes 2/.test((e as Error).message));
  await assert.rejects(render('{{truncate 0 name}}', { name: 'x' }), /above 0/);
});

test('an {{#each}} inside {{#each}} that multiplies past the output limit stops with an error; within it, it renders', async () => {
  const units = Array.from({ length: 60 }, (_, i) => ({ name: `unit ${i}` }));
  const nested = '{{#each .}}{{#each ../.}}{{#each ../../.}}{{name}}{{"\\n"}}{{/each}}{{/each}}{{/each}}';
  const bounded: TemplateSettings = { ...piped, outputLimit: 1024 * 1024 };
  const template = await compileTemplate(nested, bounded);
  assert.throws(() => template(units), (err: unknown) => err instanceof TemplateError && /--template: the output passed 1 MB/.test((err as Error).message));
  // The count starts again for each rendering (each record with -o ndjson).
  assert.equal(template(units.slice(0, 3)), (await compileTemplate(nested, piped))(units.slice(0, 3)));
});

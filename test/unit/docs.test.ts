/**
 * The README is an entrance and docs/ holds the guides: the README stays short, every relative
 * link of the README and the guides leads to a file that exists (and, into a Markdown file, to
 * a heading it has, with GitHub's anchors), and every guide is linked from the README and ships
 * in the package.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const guides = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const pages = ['README.md', ...guides];

/** The lines of a Markdown text outside fenced code blocks (a `# comment` in a sh block is no heading). */
function prose(text: string): string[] {
  let inBlock = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      inBlock = !inBlock;
      return false;
    }
    return !inBlock;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(text)) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a Markdown file (links and images), outside code. */
function relativeLinks(text: string): string[] {
  const out: string[] = [];
  for (const line of prose(text)) {
    const bare = line.replace(/`[^`]*`/g, '');
    for (const m of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target);
    }
  }
  return out;
}

test('README.md is an entrance: under 300 lines', () => {
  const lines = read('README.md').split('\n').length;
  assert.ok(lines < 300, `README.md has ${lines} lines; move the detail into a guide in docs/`);
});

test('every relative link of the README and docs/ leads to a file that exists, and to a heading it has', () => {
  const broken: string[] = [];
  for (const page of pages) {
    for (const target of relativeLinks(read(page))) {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, file))) {
        broken.push(`${page}: ${target} (no file ${file})`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor)) {
        broken.push(`${page}: ${target} (${file} has no heading #${anchor})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('the anchors are GitHub\'s: punctuation dropped, spaces hyphens, repeats numbered', () => {
  assert.deepEqual(
    [...anchors('# A\n## Waiting for a condition: `wait`\n## --jq, custom columns\n```sh\n# not a heading\n```\n## Figures (2 vCPU, load 6–8)\n## A\n')],
    ['a', 'waiting-for-a-condition-wait', '--jq-custom-columns', 'figures-2-vcpu-load-68', 'a-1'],
  );
  assert.deepEqual(relativeLinks('[x](a.md#b) `[y](c.md)` ![i](d.png) [w](https://e.org)\n```\n[z](f.md)\n```\n'), ['a.md#b', 'd.png']);
});

test('every guide in docs/ is linked from the README and ships in the package', () => {
  const readme = read('README.md');
  const files = (JSON.parse(read('package.json')) as { files: string[] }).files;
  for (const guide of guides) {
    assert.ok(readme.includes(`](${guide})`), `the README links ${guide}`);
    assert.ok(files.includes(guide) || files.includes('docs') || files.includes('docs/*.md'), `package.json "files" ships ${guide}`);
  }
});

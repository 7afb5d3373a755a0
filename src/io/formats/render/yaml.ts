/**
 * YAML via the `yaml` package, loaded only when YAML is asked for (start-up
 * time). The package double-quotes strings with control characters and escapes
 * C0 ones, but leaves DEL and C1 raw inside the quotes; \uNNNN escapes them. The
 * bidirectional overrides and isolates (which reorder what a terminal shows after
 * them) it leaves raw and unquoted: a string holding one is double-quoted here, so
 * that it too can be escaped, and its value stays the same.
 *
 * Written for YAML 1.1 readers too (PyYAML, Ruby's Psych, many tools): with the 1.1 schema a
 * string that 1.1 reads as something else (yes, no, on, 2026-11-29, 1_000, 01:30) is quoted,
 * and so are `=` and `<<` (1.1's value and merge keys); quoted, every reader reads the string.
 */
const UNESCAPED_CONTROL = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

type Stringify = (value: unknown) => string;
let loadedStringify: Stringify | undefined;

async function yamlStringify(): Promise<Stringify> {
  if (!loadedStringify) {
    // The package is CommonJS under Node: once bundled, its API is on `default`.
    const mod = await import('yaml');
    const yaml = mod.default ?? mod;
    loadedStringify = (value) => {
      const doc = new yaml.Document(value, { version: '1.1' });
      yaml.visit(doc, {
        Scalar: (_key, node) => {
          if (typeof node.value === 'string' && (BIDI.test(node.value) || node.value === '=' || node.value === '<<')) node.type = 'QUOTE_DOUBLE';
        },
      });
      return doc.toString();
    };
  }
  return loadedStringify;
}

export async function yamlText(value: unknown): Promise<string> {
  const stringify = await yamlStringify();
  return stringify(value).replace(UNESCAPED_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One record as an item of a YAML sequence; items concatenated form the sequence. */
export async function yamlSequenceItem(value: unknown): Promise<string> {
  return yamlText([value]);
}

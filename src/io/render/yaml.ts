/**
 * YAML via the `yaml` package, loaded only when YAML is asked for (start-up
 * time). The package double-quotes strings with control characters and escapes
 * C0 ones, but leaves DEL and C1 raw inside the quotes; \xNN escapes them.
 */
const UNESCAPED_CONTROL = /[\x7f-\x9f]/g;

type Stringify = (value: unknown) => string;
let loadedStringify: Stringify | undefined;

async function yamlStringify(): Promise<Stringify> {
  if (!loadedStringify) {
    // The package is CommonJS under Node: once bundled, its API is on `default`.
    const mod = await import('yaml');
    const yaml = mod.default ?? mod;
    loadedStringify = (value) => yaml.stringify(value);
  }
  return loadedStringify;
}

export async function yamlText(value: unknown): Promise<string> {
  const stringify = await yamlStringify();
  return stringify(value).replace(UNESCAPED_CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16)}`);
}

/** One record as an item of a YAML sequence; items concatenated form the sequence. */
export async function yamlSequenceItem(value: unknown): Promise<string> {
  return yamlText([value]);
}

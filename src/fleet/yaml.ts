/**
 * The `yaml` package, loaded on first use. Bundled as CommonJS, its dynamic import
 * can come back as `{ default: module }`, so both shapes are accepted here.
 */
type YamlModule = typeof import('yaml');

let loaded: YamlModule | undefined;

export async function loadYaml(): Promise<YamlModule> {
  if (!loaded) {
    const mod = (await import('yaml')) as YamlModule & { default?: YamlModule };
    loaded = typeof mod.parseDocument === 'function' ? mod : (mod.default ?? mod);
  }
  return loaded;
}

/** YAML text of a fleet document; DEL and C1 controls escaped, as the output layer does. */
export async function fleetYaml(doc: unknown): Promise<string> {
  const yaml = await loadYaml();
  const document = new yaml.Document(doc);
  // Lists of names read best on one line: groups: [North depot, Vans].
  yaml.visit(document, {
    Seq(_, node) {
      if (node.items.every((item) => yaml.isScalar(item))) node.flow = true;
    },
  });
  return document.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/[\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`);
}

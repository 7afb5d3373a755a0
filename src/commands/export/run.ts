/** export: read the live state and write it as a fleet file (YAML, or JSON with -o json). */
import { UsageError } from '../../errors.js';
import { parseFormatFrom } from '../../io/formats/output.js';
import { prettyJson } from '../../io/formats/render/json.js';
import { exportFleet } from '../../fleet/export.js';
import { LiveIndex, readLive } from '../../fleet/live.js';
import { fleetYaml } from '../../fleet/yaml.js';
import type { Run } from '../action.js';

interface ExportOptions {
  schema?: string;
}

const FORMATS = ['yaml', 'json'] as const;

export const run: Run<ExportOptions> = async (_args, opts, ctx) => {
  // Only -o picks the format: a profile or TRACKCTL_OUTPUT default made for listings (table, csv) does not apply here.
  const requested = ctx.globals.output;
  const format = requested === undefined ? 'yaml' : parseFormatFrom(requested, FORMATS);
  if (opts.schema !== undefined && (format !== 'yaml' || /[\r\n]/.test(opts.schema) || opts.schema.trim() === '')) {
    throw new UsageError(format !== 'yaml' ? '--schema is for YAML output only' : `invalid --schema "${opts.schema}"`);
  }
  if (ctx.globals.fields !== undefined) throw new UsageError('--fields does not apply to export: the file has a fixed shape');

  const live = await readLive(await ctx.api(), { self: false });
  const { doc, warnings } = exportFleet(new LiveIndex(live));
  for (const w of warnings) ctx.io.err(`warning: ${w}`);
  if (format === 'json') {
    await ctx.io.out(`${prettyJson(doc)}\n`);
    return;
  }
  const header = opts.schema === undefined ? '' : `# yaml-language-server: $schema=${opts.schema}\n`;
  await ctx.io.out(`${header}# trackctl export: apply with \`trackctl apply -f <this file>\`\n${await fleetYaml(doc)}`);
};

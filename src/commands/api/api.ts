import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { Method } from '../../api/http.js';
import type { AuthMode } from '../../api/client.js';
import { renderRaw } from '../../io/output.js';
import type { Run } from '../action.js';

interface ApiOptions {
  method: Method;
  data?: string;
  auth: AuthMode;
}

async function bodyFrom(ctx: Context, data: string | undefined): Promise<unknown> {
  if (data === undefined) return undefined;
  let text = data;
  if (data === '-') {
    text = '';
    for await (const chunk of ctx.io.stdin) text += String(chunk);
  } else if (data.startsWith('@')) {
    try {
      text = await readFile(data.slice(1), 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${data.slice(1)}: ${(err as Error).message}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--data is not valid JSON: ${text.slice(0, 60)}`);
  }
}

/** A path as typed: must start with '/', may carry a query; each segment is re-encoded only where needed. */
function normalisePath(raw: string): string {
  if (!raw.startsWith('/')) throw new UsageError(`invalid path "${raw}": must start with / (e.g. /v2/devices/)`);
  if (/[\s\u0000-\u001f]/.test(raw)) throw new UsageError(`invalid path "${raw}": whitespace or control characters`);
  return encodeURI(decodeURISafe(raw));
}

function decodeURISafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    throw new UsageError(`invalid path "${s}": malformed percent-encoding`);
  }
}

export const run: Run<ApiOptions> = async (args, opts, ctx) => {
  const path = normalisePath(args[0] ?? '');
  const body = await bodyFrom(ctx, opts.data);
  // --jq / --template apply to the reply (checked before it is sent).
  const scripted = ctx.globals.jq !== undefined || ctx.globals.template !== undefined ? await ctx.output() : undefined;
  const api = await ctx.api();
  const res = await api.call({ method: opts.method, path, body, auth: opts.auth });
  await renderRaw(res.text.endsWith('\n') ? res.text : `${res.text}\n`, { io: ctx.io, script: scripted?.script });
};

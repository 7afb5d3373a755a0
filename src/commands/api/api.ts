import { limitText, readFileUpTo, readStreamUpTo } from '../../bounded-read.js';
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { Method } from '../../api/http.js';
import { errorFor, type ApiRequest, type AuthMode } from '../../api/client.js';
import { renderRaw } from '../../io/formats/output.js';
import type { Run } from '../action.js';

interface ApiOptions {
  /** Not given: GET, or POST with --data. */
  method?: Method;
  data?: string;
  auth: AuthMode;
}

/** A request body is a record or a batch of them; /dev/zero or an endless pipe stops here. */
const MAX_BODY_BYTES = 64 * 1048576;

async function bodyFrom(ctx: Context, data: string | undefined): Promise<unknown> {
  if (data === undefined) return undefined;
  let text: string | undefined = data;
  if (data === '-') {
    text = await readStreamUpTo(ctx.io.stdin, MAX_BODY_BYTES);
  } else if (data.startsWith('@')) {
    try {
      text = await readFileUpTo(data.slice(1), MAX_BODY_BYTES);
    } catch (err) {
      throw new UsageError(`cannot read ${data.slice(1)}: ${(err as Error).message}`);
    }
  }
  if (text === undefined) throw new UsageError(`--data ${data} is ${limitText(MAX_BODY_BYTES)}`);
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
  // As gh api: GET, or POST when there is a body to send.
  const req: ApiRequest = { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), path, body, auth: opts.auth };
  const res = await api.reply(req);
  const ok = res.status >= 200 && res.status < 300;
  // The body of an error reply is printed too (a script reads the service's own words), and the run fails by the reply's status.
  if (res.text !== '' || ok) await renderRaw(res.text.endsWith('\n') ? res.text : `${res.text}\n`, { io: ctx.io, script: ok ? scripted?.script : undefined });
  if (!ok) throw errorFor(req, res.status, res.text);
};

/**
 * Control endpoints under /_sandbox/ — outside the service's interface, never faulted
 * and not logged — so tests that run the sandbox as a separate process can drive it.
 */
import { depotsText } from '../depots.js';
import { badRequest, notFound, SandboxError } from '../errors.js';
import { json, type RequestLogEntry, type TextReply } from '../http.js';
import { objectBody } from '../validate.js';

export interface ControlDeps {
  seed: number;
  requests: RequestLogEntry[];
  clearRequests(): void;
  nowMs(): number;
  setNow(ms: number): void;
  setFaults(spec: string): void;
  faultSpec(): string;
}

function numberField(body: Record<string, unknown>, field: string): number {
  const v = body[field];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`${field} must be a number of seconds`, field);
  return v;
}

export function control(deps: ControlDeps, method: string, parts: string[], body: unknown): TextReply {
  const what = parts[1] ?? '';
  const route = `${method} ${what}`;
  switch (route) {
    case 'GET requests':
      return json(200, deps.requests);
    case 'DELETE requests':
      deps.clearRequests();
      return json(200, { success: 'Request log cleared.' });
    case 'GET clock':
      return json(200, { now: Math.floor(deps.nowMs() / 1000), nowMs: deps.nowMs() });
    case 'POST clock': {
      const b = objectBody(body);
      if (b.now !== undefined) deps.setNow(numberField(b, 'now') * 1000);
      else if (b.advance !== undefined) deps.setNow(deps.nowMs() + numberField(b, 'advance') * 1000);
      else throw badRequest('give {"now": <unix seconds>} or {"advance": <seconds>}', 'now');
      return json(200, { success: 'Clock moved.', now: Math.floor(deps.nowMs() / 1000) });
    }
    case 'GET depots':
      return { kind: 'text', status: 200, text: depotsText(deps.seed), contentType: 'application/geo+json', headers: {} };
    case 'GET faults':
      return json(200, { spec: deps.faultSpec() });
    case 'POST faults': {
      const b = objectBody(body);
      if (typeof b.spec !== 'string') throw badRequest('spec must be a string (use "" or "none" for no faults)', 'spec');
      try {
        deps.setFaults(b.spec);
      } catch (err) {
        throw new SandboxError(422, 'invalid_value', (err as Error).message, 'spec');
      }
      return json(200, { success: 'Faults set.', spec: b.spec });
    }
    default:
      throw notFound(
        `no sandbox control endpoint ${method} /${parts.join('/')} (known: GET|DELETE /_sandbox/requests, GET|POST /_sandbox/clock, GET|POST /_sandbox/faults, GET /_sandbox/depots, GET /_sandbox/truth/<did>)`,
      );
  }
}

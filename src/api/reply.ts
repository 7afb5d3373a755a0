/**
 * A reply's body as the layers above read it: a JSON object, or a typed error that names the
 * status and quotes a short, sanitised excerpt of what came instead.
 */
import { ApiError } from '../errors.js';
import { sanitizeText } from '../sanitize.js';
import type { HttpResponse } from './http.js';
import { errorInSuccess, errorReplyError } from './tolerant.js';

export function parseJsonObject(res: HttpResponse): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    throw new ApiError(`the service sent a reply that is not JSON (status ${res.status}): ${excerpt(res.text)}`, res.status);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): ${excerpt(res.text)}`, res.status);
  }
  // A 2xx whose body is an error: a failure with the service's own words, never an empty success.
  const failure = errorInSuccess(parsed as Record<string, unknown>);
  if (failure !== undefined) throw errorReplyError(res.status, failure, (s) => excerpt(s, 300));
  return parsed as Record<string, unknown>;
}

export function excerpt(text: string, max = 120): string {
  const flat = sanitizeText(text).replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

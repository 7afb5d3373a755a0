/**
 * Redaction for the -v trace: no secret may reach stderr, whatever its place
 * (headers, request bodies, the token endpoint's reply).
 */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization']);
const SECRET_KEYS = /^(password|access_token|refresh_token|token|client_secret|accessToken|refreshToken|cookies?)$/i;
export const REDACTED = '[REDACTED]';

export function redactHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  if (name.toLowerCase() === 'authorization') {
    const scheme = value.split(' ')[0];
    return scheme && scheme !== value ? `${scheme} ${REDACTED}` : REDACTED;
  }
  if (name.toLowerCase() === 'set-cookie') {
    // Keep the cookie's name and attributes: they help debugging and are not secret.
    return value.replace(/^([^=;]+)=[^;]*/, `$1=${REDACTED}`);
  }
  return value.replace(/([^=;\s]+)=[^;]*/g, `$1=${REDACTED}`);
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? REDACTED : redactValue(v);
    return out;
  }
  return value;
}

/** Redacts a JSON body; text that is not JSON has any "key": "value" secret pairs masked. */
export function redactBody(text: string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    return text.replace(
      /("(?:password|access_token|refresh_token|token|client_secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
      `$1"${REDACTED}"`,
    );
  }
}

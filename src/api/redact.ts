/**
 * Redaction for the -v trace: no secret may reach stderr, whatever its place
 * (headers, request bodies, the token endpoint's reply).
 */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']);
const SECRET_KEYS = /^(password|passwd|secret|access_token|refresh_token|id_token|token|client_secret|api_?key|accessToken|refreshToken|cookies?)$/i;
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

/** A URL with the values of its secret query parameters (`?access_token=…`) masked. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1).replace(/([^&=]+)=([^&#]*)/g, (all, name: string) => {
    let key = name;
    try {
      key = decodeURIComponent(name);
    } catch {
      // a malformed escape: the name as written
    }
    return SECRET_KEYS.test(key) ? `${name}=${REDACTED}` : all;
  });
  return `${url.slice(0, q)}?${query}`;
}

/** Redacts a JSON body; text that is not JSON has any "key": "value" secret pairs masked. */
export function redactBody(text: string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    return text.replace(
      /("(?:password|passwd|secret|access_token|refresh_token|id_token|token|client_secret|api_?key)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
      `$1"${REDACTED}"`,
    );
  }
}

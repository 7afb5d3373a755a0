/** Decoding (not verifying) the access token: the client only reads its claims. */
export interface AccessClaims {
  aud?: string;
  jti?: string;
  iat?: number;
  nbf?: number;
  exp?: number;
  sub?: string;
  scopes?: string[];
  [key: string]: unknown;
}

export function decodeJwt(token: string): { header: Record<string, unknown>; claims: AccessClaims } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as AccessClaims;
    return { header, claims };
  } catch {
    return undefined;
  }
}

/** sub is "<aid>:<uid>". */
export function subjectIds(sub: string | undefined): { aid?: number; uid?: number } {
  const m = /^(\d+):(\d+)$/.exec(sub ?? '');
  return m ? { aid: Number(m[1]), uid: Number(m[2]) } : {};
}

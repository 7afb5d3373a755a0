/**
 * The routing table: every endpoint of the interface, with the auth each accepts.
 * `v2`: bearer token or session cookie. `session`: session cookie only (the unversioned
 * endpoints). `none`: token endpoint and cookie sign-in.
 */
import type { Route } from './http.js';
import { shareRoutes } from './handlers/shares.js';
import { groupRoutes } from './handlers/groups.js';
import { userRoutes } from './handlers/users.js';
import { unitRoutes } from './handlers/units.js';
import { authRoutes } from './handlers/auth.js';
import { historyRoutes } from './handlers/history.js';

export const ROUTES: Route[] = [
  ...authRoutes,
  ...historyRoutes,
  ...shareRoutes,
  ...groupRoutes,
  ...userRoutes,
  ...unitRoutes,
];

interface Compiled {
  route: Route;
  segs: string[];
  rest: string | undefined;
}

const COMPILED: Compiled[] = ROUTES.map((route) => {
  const segs = route.pattern.split('/').filter((s) => s !== '');
  const last = segs[segs.length - 1];
  const rest = last?.startsWith('*') ? last.slice(1) : undefined;
  return { route, segs: rest === undefined ? segs : segs.slice(0, -1), rest };
});

export interface Match {
  route: Route;
  params: Record<string, string>;
  rest: string[];
}

function matchSegments(c: Compiled, parts: string[]): Omit<Match, 'route'> | undefined {
  if (c.rest === undefined ? parts.length !== c.segs.length : parts.length < c.segs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < c.segs.length; i++) {
    const seg = c.segs[i] as string;
    const part = parts[i] as string;
    if (seg.startsWith(':')) params[seg.slice(1)] = part;
    else if (seg !== part) return undefined;
  }
  return { params, rest: parts.slice(c.segs.length) };
}

/**
 * Find the route for a method and decoded path segments. `allowed` lists the methods
 * of routes whose path matched, for a 405 with Allow.
 */
export function resolve(method: string, parts: string[]): { match?: Match; allowed: string[] } {
  const allowed: string[] = [];
  for (const c of COMPILED) {
    const m = matchSegments(c, parts);
    if (!m) continue;
    if (c.route.method === method) return { match: { route: c.route, ...m }, allowed };
    if (!allowed.includes(c.route.method)) allowed.push(c.route.method);
  }
  return { allowed };
}

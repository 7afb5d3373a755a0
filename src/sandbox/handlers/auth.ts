/** POST/GET /v2/access-token/ (password and refresh grants), POST /api/login/, GET /login/. */
import { json, ok } from '../http.js';
import type { Route } from '../http.js';
import { loginData, passwordGrant, refreshGrant, SESSION_COOKIE, sessionLogin } from '../service/auth.js';
import { findUser } from '../service/users.js';

export const authRoutes: Route[] = [
  { method: 'POST', pattern: '/v2/access-token', auth: 'none', handler: (c) => json(200, passwordGrant(c.db, c.body)) },
  // The interface's refresh grant is a GET that carries a JSON body.
  { method: 'GET', pattern: '/v2/access-token', auth: 'none', handler: (c) => json(200, refreshGrant(c.db, c.body)) },
  {
    method: 'POST', pattern: '/api/login', auth: 'none',
    handler: (c) => {
      const { data, session } = sessionLogin(c.db, c.body);
      const cookie = `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${c.db.ttl.session}`;
      return json(200, data, { 'Set-Cookie': cookie });
    },
  },
  {
    method: 'GET', pattern: '/login', auth: 'session',
    handler: (c) => {
      const user = findUser(c.db, c.principal?.uid ?? 0);
      const data = loginData(c.db, user, true, 'Login data has been successfully retrieved.');
      const { success, ...rest } = data;
      return ok(String(success), rest);
    },
  },
];

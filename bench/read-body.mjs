// The floor under `trackctl history -o ndjson`: a reply's body copied to stdout by an HTTP client alone,
// nothing checked or cut. bench/history.mjs runs it beside trackctl to show what each HTTP stack costs.
//   undici: the way trackctl reads a history (a Pool and undici's request API, the body as a stream).
//   http:   Node's own client (its parser is native; undici's is WebAssembly).
// Usage: node bench/read-body.mjs undici|http URL COOKIE > /dev/null
import { writeSync } from 'node:fs';

const [client, url, cookie] = process.argv.slice(2);
const headers = { cookie };
const done = (what) => (err) => {
  if (err) {
    console.error(`${what}: ${err.message}`);
    process.exitCode = 1;
  }
};
if (client === 'undici') {
  const { default: Pool } = await import('undici/lib/dispatcher/pool.js');
  const { default: request } = await import('undici/lib/api/api-request.js');
  const target = new URL(url);
  const pool = new Pool(target.origin);
  const { statusCode, body } = await request.call(pool, { method: 'GET', path: target.pathname, headers });
  if (statusCode !== 200) throw new Error(`status ${statusCode}`);
  body.on('data', (chunk) => writeSync(1, chunk));
  body.on('end', () => void pool.close());
  body.on('error', done('undici'));
} else if (client === 'http') {
  const http = await import('node:http');
  http
    .get(url, { headers }, (res) => {
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      res.on('data', (chunk) => writeSync(1, chunk));
      res.on('error', done('http'));
    })
    .on('error', done('http'));
} else {
  throw new Error(`usage: node bench/read-body.mjs undici|http URL COOKIE (got ${client})`);
}

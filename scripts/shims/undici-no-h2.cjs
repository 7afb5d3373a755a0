// Build-time stand-in for undici's HTTP/2 client (lib/dispatcher/client-h2.js). trackctl never
// enables HTTP/2: allowH2 stays false, so TLS offers only http/1.1, and no socket is marked h2c.
// undici therefore never calls this; leaving the real one out saves parsing 17 KB of code and
// loading node:http2 at every start-up. Were it ever reached, it fails loudly.
'use strict';

module.exports = function connectH2() {
  throw new Error('undici attempted an HTTP/2 connection, which trackctl never enables');
};

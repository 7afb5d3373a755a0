// Build-time stand-in for `node:http2` inside undici's HTTP/2 client. trackctl speaks
// HTTP/1.1 only, yet undici loads node:http2 (and with it node:tls) when its module
// is evaluated: ~15 ms of every command's start-up. This gives undici the constants it
// reads at load time and loads the real module only if an HTTP/2 session is ever opened.
// test/unit/http2-shim.test.ts checks the constants against node:http2.
'use strict';

const constants = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

module.exports = {
  constants,
  connect: (...args) => require('node:http2').connect(...args),
};

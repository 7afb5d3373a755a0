// Build-time stand-in for node:http inside undici's core (lib/core/util.js and
// lib/dispatcher/client.js). Loading node:http costs ~4 ms of every command's start-up (its
// client, server, agent and parser come with it), and undici reads only two things from it:
// - maxHeaderSize, the default for the agent's maxHeaderSize: node's default is given here
//   (test/unit/undici-shims.test.ts checks it);
// - IncomingMessage, to detach the socket when destroying a request body that is an incoming
//   HTTP message. trackctl's request bodies are always strings, so nothing is ever one.
'use strict';

module.exports = {
  maxHeaderSize: 16384,
  IncomingMessage: class IncomingMessage {},
};

// Build-time stand-in for node:assert inside undici. undici calls it only as assert(value[, message])
// to check its own invariants (test/unit/undici-shims.test.ts keeps it so), while loading node:assert
// costs ~3 ms of every command's start-up. A check that fails still throws node's AssertionError:
// the real module is loaded then.
'use strict';

module.exports = function assert(value, message) {
  if (!value) require('node:assert')(value, message);
};

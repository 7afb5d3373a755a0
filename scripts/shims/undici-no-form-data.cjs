// Build-time stand-in for undici's fetch body code (lib/web/fetch/body.js, 62 KB with what it
// needs). undici's HTTP/1 client requires it only to encode a FormData request body; trackctl
// sends JSON or URL-encoded strings, never FormData. A run-time require of the real file would
// fail anyway: undici is bundled, so an installed package has no node_modules/undici. Were this
// ever reached, it fails loudly.
'use strict';

module.exports = {
  extractBody() {
    throw new Error('undici attempted to encode a FormData body, which trackctl never sends');
  },
};

// Build-time stand-in for `node:child_process` inside commander. commander needs it only
// to run external subcommand executables, which trackctl never declares, yet loading it
// at start-up costs ~8 ms (it pulls in net, dgram and the stream machinery). The real
// module is loaded if commander ever calls spawn.
'use strict';

module.exports = {
  spawn: (...args) => require('node:child_process').spawn(...args),
};

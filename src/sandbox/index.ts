/**
 * The sandbox: a stateful, fault-injecting simulator of the whole Fleet Location Tracking
 * Service interface (see docs/sandbox.md). Layered routes → service → store.
 */
export { startSandbox } from './server.js';
export type { Sandbox } from './server.js';
export type { RequestLogEntry } from './http.js';
export type { SandboxOptions } from './options.js';
export { DEMO_ACCOUNT } from './seed.js';
export { BENCH_UNIT_ID } from './handlers/history.js';
export { resetState } from './store.js';
export { parseFaults } from './faults.js';
export { REPORT_TYPES } from './history.js';
export { depotsText } from './depots.js';

/**
 * Tests that need a system tool (mandoc, zsh, fish, tmux, secret-tool, xmllint…)
 * skip when it is missing on a developer's machine, and FAIL in CI (CI=true),
 * where .ci/run must have installed it.
 */
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';

export function hasTool(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export function inCI(): boolean {
  const v = process.env.CI;
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}

/** Returns true when the test may go on; skips (locally) or throws (CI) otherwise. */
export function needTool(t: TestContext, name: string): boolean {
  if (hasTool(name)) return true;
  if (inCI()) throw new Error(`${name} is required in CI but is not installed (see .ci/run)`);
  t.skip(`${name} is not installed`);
  return false;
}

/**
 * The machine's environment as npm needs it to reach its registry: scripts/test.mjs keeps the
 * extra certificate authorities (NODE_EXTRA_CA_CERTS) from the suite's own processes.
 */
export function registryEnv(): NodeJS.ProcessEnv {
  const ca = process.env.TRACKCTL_TEST_EXTRA_CA_CERTS;
  return ca ? { ...process.env, NODE_EXTRA_CA_CERTS: ca } : { ...process.env };
}

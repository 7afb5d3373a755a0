/**
 * Random hex for unique file names and lock tokens. node:crypto is loaded on
 * first use: ~4 ms of start-up that a command which writes nothing never pays.
 */
export async function randomHex(bytes: number): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  return randomBytes(bytes).toString('hex');
}

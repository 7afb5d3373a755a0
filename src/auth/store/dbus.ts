/**
 * A quick, non-blocking check that the D-Bus session bus answers, made before
 * @napi-rs/keyring is asked to connect. Its entry constructor connects
 * synchronously: against a bus socket that accepts but never replies it
 * blocks the event loop indefinitely, and no timeout can interrupt it.
 * Here the same connection is attempted with net and a deadline instead.
 */
import { connect } from 'node:net';

/**
 * Resolves undefined when the bus answered (or the address is not one we can
 * check, e.g. unset or tcp: the library then fails fast on its own), or a
 * reason why the bus is unusable.
 */
export async function checkSessionBus(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string | undefined> {
  const address = env['DBUS_SESSION_BUS_ADDRESS'];
  if (address === undefined || address === '') return undefined;
  const sockets = address
    .split(';')
    .map(unixSocketPath)
    .filter((p): p is string => p !== undefined);
  if (sockets.length === 0) return undefined;
  let reason = '';
  for (const path of sockets) {
    const failure = await greet(path, timeoutMs);
    if (failure === undefined) return undefined;
    reason = failure;
  }
  return reason;
}

/** `unix:path=/run/user/1000/bus,guid=…` or `unix:abstract=/tmp/dbus-…`; anything else → undefined. */
function unixSocketPath(entry: string): string | undefined {
  const [transport, params = ''] = entry.split(/:(.*)/s);
  if (transport !== 'unix') return undefined;
  const values = new Map<string, string>();
  for (const pair of params.split(',')) {
    const eq = pair.indexOf('=');
    if (eq > 0) values.set(pair.slice(0, eq), unescapeValue(pair.slice(eq + 1)));
  }
  const path = values.get('path');
  if (path !== undefined) return path;
  const abstract = values.get('abstract');
  return abstract === undefined ? undefined : `\0${abstract}`;
}

function unescapeValue(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Opens the socket and starts SASL (`\0AUTH\r\n`); any reply line means the daemon is alive. */
function greet(path: string, timeoutMs: number): Promise<string | undefined> {
  const shown = path.startsWith('\0') ? `abstract socket ${path.slice(1)}` : path;
  return new Promise((resolve) => {
    const socket = connect({ path });
    const finish = (result: string | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish(`the D-Bus session bus at ${shown} did not answer within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => socket.write('\0AUTH\r\n'));
    socket.on('data', (chunk: Buffer) => {
      if (chunk.includes('\r\n')) finish(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      finish(`cannot connect to the D-Bus session bus at ${shown}: ${err.code ?? err.message}`),
    );
    socket.once('close', () => finish(`the D-Bus session bus at ${shown} closed the connection`));
  });
}

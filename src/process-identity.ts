/**
 * Whether the process that left something (a lock, a spool folder) is still there.
 *
 * `kill(pid, 0)` alone is wrong twice: a process SIGKILLed is a zombie until its parent
 * reaps it, and kill calls a zombie alive (a supervisor that restarts a run at once was
 * refused for 1-3 s); and a pid is reused, so a stranger can pass for a dead owner. On Linux
 * /proc/<pid>/stat says both: the state (`Z` zombie, `X` dead) and the start time (clock
 * ticks after boot, field 22), which with the pid names one process for the life of the
 * machine. Where there is no /proc, kill(pid, 0) is all there is.
 */
import { readFileSync } from 'node:fs';

/** A process as /proc names it: its pid and start time (undefined where there is no /proc). */
export interface ProcessId {
  pid: number;
  start?: number | undefined;
}

interface Stat {
  state: string;
  start: number;
}

/** /proc/<pid>/stat's state and start time; null when there is no such process; undefined when /proc cannot tell. */
function procStat(pid: number): Stat | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' && procMounted() ? null : undefined;
  }
  // The name (field 2) is in parentheses and may hold spaces and parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]);
  return fields[0] !== undefined && Number.isSafeInteger(start) ? { state: fields[0], start } : undefined;
}

let mounted: boolean | undefined;
function procMounted(): boolean {
  if (mounted === undefined) {
    try {
      readFileSync('/proc/self/stat');
      mounted = true;
    } catch {
      mounted = false;
    }
  }
  return mounted;
}

/** This process, as others will check it. */
export function ownId(): ProcessId {
  const stat = procStat(process.pid);
  return stat ? { pid: process.pid, start: stat.start } : { pid: process.pid };
}

/**
 * True while the process runs: not gone, not a zombie, and (when its start time is known)
 * the same process, not another that got its pid.
 */
export function processAlive(id: ProcessId): boolean {
  const stat = procStat(id.pid);
  if (stat === null) return false;
  if (stat !== undefined) return stat.state !== 'Z' && stat.state !== 'X' && (id.start === undefined || id.start === stat.start);
  try {
    process.kill(id.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

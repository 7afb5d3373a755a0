/** What the output-format tests (custom columns, templates) check against: the demo fleet's devices and a day of unit 2004. */
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './cli.js';

export const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
export const FROM = String(Date.UTC(2026, 10, 25, 9, 0, 0) / 1000);
export const TO = String(Date.UTC(2026, 10, 26, 9, 0, 0) / 1000);

export interface Device {
  did: number;
  name: string;
  deviceType: string;
  groupMember?: number[];
  lastGPSTimestamp: number;
  lastBatteryLevel: number | null;
}
export interface Feature {
  properties: { date: number; speed: number; did: number };
  geometry: { coordinates: [number, number] };
}

export const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

/** A harness at CLOCK_MS with the devices as `devices list` prints them and unit 2004's history FROM-TO. */
export async function formatFixture(): Promise<{ h: Harness; devices: Device[]; history: Feature[] }> {
  const h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400, inProcess: true });
  const devices = await h.json<Device[]>(['devices', 'list']);
  const r = await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson']);
  assert.equal(r.code, 0, r.stderr);
  const history = lines(r.stdout).map((line) => JSON.parse(line) as Feature);
  assert.ok(devices.length > 5 && history.length > 20);
  return { h, devices, history };
}

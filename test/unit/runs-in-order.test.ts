import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InUnitOrder } from '../../src/runs/in-order.js';

/** Settles after every pending microtask and timer callback queued so far. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('records come out by unit, whatever order the units finish in; the first unit streams', async () => {
  const out: string[] = [];
  const order = new InUnitOrder<string>(async (rec) => {
    await turn(); // a slow target: a write takes a turn of the event loop
    out.push(rec);
  });
  await order.push(1, 'b1');
  await order.push(2, 'c1');
  await order.push(0, 'a1');
  assert.deepEqual(out, ['a1'], 'the first unit writes through; later ones are held');
  await order.finish(2);
  await order.push(1, 'b2');
  assert.deepEqual(out, ['a1']);
  // Unit 0 finishes while unit 1 goes on pushing: 1's held rows are written before its new one.
  const finishing = order.finish(0);
  const late = order.push(1, 'b3');
  await Promise.all([finishing, late]);
  assert.deepEqual(out, ['a1', 'b1', 'b2', 'b3']);
  await order.finish(1); // unit 2 had finished: its held rows follow at once
  assert.deepEqual(out, ['a1', 'b1', 'b2', 'b3', 'c1']);
});

test('a failed write fails its caller; later records are still ordered', async () => {
  const out: string[] = [];
  const order = new InUnitOrder<string>(async (rec) => {
    if (rec === 'bad') throw new Error('disk full');
    out.push(rec);
  });
  await assert.rejects(order.push(0, 'bad'), /disk full/);
  await order.push(1, 'b1');
  await order.finish(0);
  await order.finish(1);
  assert.deepEqual(out, ['b1']);
});

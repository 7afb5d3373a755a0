/**
 * Whether a closed ring crosses or touches itself. A self-intersecting fence (a
 * bow tie, a figure eight, a ring that doubles back) has no single inside: the
 * even-odd test would report enter/exit where the user drew none, so such a fence
 * is refused when it is read.
 *
 * Edges are compared only with the edges near them (a grid over the ring's
 * bounding box), so a detailed ring of 100,000 positions is checked in well under
 * a second. Consecutive duplicate positions (common in exported
 * files) are ignored; a ring is [lng0, lat0, lng1, lat1, …] with the closing position kept.
 */

/** Two edges that meet though they are not neighbours, as indices of their first positions. */
export interface RingCrossing {
  edge: number;
  other: number;
  /** A position of the first edge, to name where in the error. */
  near: [number, number];
}

export function ringCrossing(ring: ArrayLike<number>): RingCrossing | undefined {
  const xs = new Float64Array(ring.length / 2);
  const ys = new Float64Array(ring.length / 2);
  const index: number[] = [];
  let n = 0;
  for (let k = 0; k < ring.length; k += 2) {
    const x = ring[k] as number, y = ring[k + 1] as number;
    if (n > 0 && xs[n - 1] === x && ys[n - 1] === y) continue;
    [xs[n], ys[n]] = [x, y];
    index.push(k / 2);
    n++;
  }
  const edges = n - 1;
  if (edges < 3) return undefined;
  const found = (a: number, b: number): RingCrossing => ({ edge: index[a] as number, other: index[b] as number, near: [xs[a] as number, ys[a] as number] });
  // Neighbouring edges share a position; they meet elsewhere only when the ring turns straight back.
  for (let a = 0; a < edges; a++) {
    const b = (a + 1) % edges;
    if (turnsBack(xs, ys, a, b)) return found(a, b);
  }
  // Edges are bucketed in a grid of about one cell per edge; only edges sharing a cell are compared.
  // A 1-D sweep would compare every edge of a star-shaped ring's horizontal spokes with every other.
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k < n; k++) {
    [x0, x1] = [Math.min(x0, xs[k] as number), Math.max(x1, xs[k] as number)];
    [y0, y1] = [Math.min(y0, ys[k] as number), Math.max(y1, ys[k] as number)];
  }
  const side = Math.ceil(Math.sqrt(edges));
  const column = (x: number): number => (x1 > x0 ? Math.min(side - 1, Math.floor(((x - x0) / (x1 - x0)) * side)) : 0);
  const row = (y: number): number => (y1 > y0 ? Math.min(side - 1, Math.floor(((y - y0) / (y1 - y0)) * side)) : 0);
  const cells = new Map<number, number[]>();
  for (let e = 0; e < edges; e++) {
    const ax = xs[e] as number, ay = ys[e] as number, bx = xs[e + 1] as number, by = ys[e + 1] as number;
    for (let c = column(Math.min(ax, bx)); c <= column(Math.max(ax, bx)); c++) {
      for (let r = row(Math.min(ay, by)); r <= row(Math.max(ay, by)); r++) {
        const key = c * side + r;
        const inCell = cells.get(key);
        if (inCell === undefined) {
          cells.set(key, [e]);
          continue;
        }
        for (const o of inCell) {
          if (!neighbours(e, o, edges) && segmentsMeet(xs, ys, o, e)) return found(o, e);
        }
        inCell.push(e);
      }
    }
  }
  return undefined;
}

function neighbours(a: number, b: number, edges: number): boolean {
  const d = Math.abs(a - b);
  return d === 1 || d === edges - 1;
}

/** Sign of the turn (px, py) → (qx, qy) → (rx, ry): 1 left, -1 right, 0 collinear. */
function turn(px: number, py: number, qx: number, qy: number, rx: number, ry: number): number {
  return Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
}

/** Edge b starts where edge a ends; it doubles back along a when collinear and pointing the other way. */
function turnsBack(xs: Float64Array, ys: Float64Array, a: number, b: number): boolean {
  const px = xs[a] as number, py = ys[a] as number, mx = xs[b] as number, my = ys[b] as number, qx = xs[b + 1] as number, qy = ys[b + 1] as number;
  if (turn(px, py, mx, my, qx, qy) !== 0) return false;
  return (px - mx) * (qx - mx) + (py - my) * (qy - my) > 0;
}

/** (qx, qy) lies within the bounding box of p–r (used once the three are known collinear). */
function within(px: number, py: number, qx: number, qy: number, rx: number, ry: number): boolean {
  return Math.min(px, rx) <= qx && qx <= Math.max(px, rx) && Math.min(py, ry) <= qy && qy <= Math.max(py, ry);
}

/** Whether edges a and b share any point (crossing, touching or overlapping). */
function segmentsMeet(xs: Float64Array, ys: Float64Array, a: number, b: number): boolean {
  const ax = xs[a] as number, ay = ys[a] as number, bx = xs[a + 1] as number, by = ys[a + 1] as number;
  const cx = xs[b] as number, cy = ys[b] as number, dx = xs[b + 1] as number, dy = ys[b + 1] as number;
  // Apart in x or y: no need to look closer (most pairs that share a grid cell).
  if (Math.max(ax, bx) < Math.min(cx, dx) || Math.max(cx, dx) < Math.min(ax, bx)) return false;
  if (Math.max(ay, by) < Math.min(cy, dy) || Math.max(cy, dy) < Math.min(ay, by)) return false;
  const d1 = turn(cx, cy, dx, dy, ax, ay), d2 = turn(cx, cy, dx, dy, bx, by);
  const d3 = turn(ax, ay, bx, by, cx, cy), d4 = turn(ax, ay, bx, by, dx, dy);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && within(cx, cy, ax, ay, dx, dy)) || (d2 === 0 && within(cx, cy, bx, by, dx, dy)) ||
    (d3 === 0 && within(ax, ay, cx, cy, bx, by)) || (d4 === 0 && within(ax, ay, dx, dy, bx, by))
  );
}

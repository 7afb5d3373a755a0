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
          if (!neighbours(e, o, edges) && segmentsMeet(xs[o]!, ys[o]!, xs[o + 1]!, ys[o + 1]!, ax, ay, bx, by)) return found(o, e);
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

/** Whether edges a–b and c–d share any point (crossing, touching or overlapping). */
function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
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

/**
 * Twice the area a closed ring encloses (shoelace; its sign is the ring's direction). Zero
 * for a ring whose positions are all the same, or all on one line: such a "fence" has no
 * inside, and no unit could ever enter it.
 */
export function ringArea(ring: ArrayLike<number>): number {
  let twice = 0;
  for (let k = 0; k + 3 < ring.length; k += 2) twice += (ring[k] as number) * (ring[k + 3] as number) - (ring[k + 2] as number) * (ring[k + 1] as number);
  return twice;
}

/** Two rings whose edges meet, as their indices, and where. */
export interface RingsMeeting {
  ring: number;
  other: number;
  near: [number, number];
}

/**
 * Whether any edge of one ring meets (crosses, touches or runs along) an edge of another:
 * the polygons of a MultiPolygon must lie apart, else a unit inside both is in the fence
 * twice over (a duplicated polygon), or the file holds one place drawn in pieces. Edges are
 * bucketed in one grid over every ring, as ringCrossing does for one, so a border with
 * thousands of islands is checked in about the time its edges take to read.
 */
export function ringsMeeting(rings: readonly ArrayLike<number>[]): RingsMeeting | undefined {
  let count = 0;
  for (const ring of rings) count += Math.max(0, ring.length / 2 - 1);
  const owner = new Int32Array(count);
  const coords = new Float64Array(4 * count); // ax, ay, bx, by of each edge
  let edges = 0;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  rings.forEach((ring, r) => {
    for (let k = 0; k + 3 < ring.length; k += 2) {
      const ax = ring[k] as number, ay = ring[k + 1] as number, bx = ring[k + 2] as number, by = ring[k + 3] as number;
      if (ax === bx && ay === by) continue;
      owner[edges] = r;
      coords[4 * edges] = ax;
      coords[4 * edges + 1] = ay;
      coords[4 * edges + 2] = bx;
      coords[4 * edges + 3] = by;
      edges++;
      x0 = Math.min(x0, ax, bx);
      x1 = Math.max(x1, ax, bx);
      y0 = Math.min(y0, ay, by);
      y1 = Math.max(y1, ay, by);
    }
  });
  const side = Math.max(1, Math.ceil(Math.sqrt(edges)));
  const column = (x: number): number => (x1 > x0 ? Math.min(side - 1, Math.floor(((x - x0) / (x1 - x0)) * side)) : 0);
  const row = (y: number): number => (y1 > y0 ? Math.min(side - 1, Math.floor(((y - y0) / (y1 - y0)) * side)) : 0);
  // Each edge in every cell its box covers, laid out cell after cell in one array (no array per cell).
  const eachCell = (e: number, visit: (cell: number) => void): void => {
    const ax = coords[4 * e]!, ay = coords[4 * e + 1]!, bx = coords[4 * e + 2]!, by = coords[4 * e + 3]!;
    for (let c = column(Math.min(ax, bx)); c <= column(Math.max(ax, bx)); c++) {
      for (let r = row(Math.min(ay, by)); r <= row(Math.max(ay, by)); r++) visit(c * side + r);
    }
  };
  const start = new Int32Array(side * side + 1);
  for (let e = 0; e < edges; e++) eachCell(e, (cell) => start[cell + 1]!++);
  for (let cell = 0; cell < side * side; cell++) start[cell + 1]! += start[cell]!;
  const filled = start.slice(0, side * side);
  const inCells = new Int32Array(start[side * side]!);
  for (let e = 0; e < edges; e++) eachCell(e, (cell) => (inCells[filled[cell]!++] = e));
  for (let cell = 0; cell < side * side; cell++) {
    for (let i = start[cell]!; i < start[cell + 1]!; i++) {
      const e = inCells[i]!;
      const ax = coords[4 * e]!, ay = coords[4 * e + 1]!, bx = coords[4 * e + 2]!, by = coords[4 * e + 3]!;
      for (let j = start[cell]!; j < i; j++) {
        const o = inCells[j]!;
        if (owner[o] === owner[e]) continue;
        const cx = coords[4 * o]!, cy = coords[4 * o + 1]!, dx = coords[4 * o + 2]!, dy = coords[4 * o + 3]!;
        if (segmentsMeet(cx, cy, dx, dy, ax, ay, bx, by)) return { ring: Math.min(owner[o]!, owner[e]!), other: Math.max(owner[o]!, owner[e]!), near: [cx, cy] };
      }
    }
  }
  return undefined;
}

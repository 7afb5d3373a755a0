/**
 * Line simplification for drawing (Douglas-Peucker): a long track is drawn with the
 * vertices that change its shape, while every report stays in the page for popups.
 * Iterative (an explicit stack), so a 100,000-point track cannot overflow the call stack; one
 * pass serves every tolerance tried for a budget.
 */

/**
 * Indices (ascending) of the vertices to keep: the first, the last, every index in
 * `keep`, and the points more than `tolerance` from the simplified line. Coordinates
 * are degrees; distances are measured on a local equirectangular projection, in degrees
 * of latitude (1e-5 ≈ 1.1 m).
 */
export function simplifyIndices(lat: ArrayLike<number>, lng: ArrayLike<number>, tolerance: number, keep: Iterable<number> = []): number[] {
  if (lat.length <= 2) return Array.from({ length: lat.length }, (_, i) => i);
  return kept(keptUpTo(lat, lng, tolerance), tolerance * tolerance, marked(lat.length, keep));
}

/**
 * For each vertex, the square of the largest tolerance (from `tolerance` up) at which it is
 * kept; 0 where it is not kept even at `tolerance`, Infinity for the ends. A vertex is kept
 * while its segment's farthest point lies beyond the tolerance and every segment it was split
 * from was split too: so one pass serves every larger tolerance.
 */
function keptUpTo(lat: ArrayLike<number>, lng: ArrayLike<number>, tolerance: number): Float64Array {
  const n = lat.length;
  const kx = Math.cos(((lat[0] ?? 0) * Math.PI) / 180);
  const upTo = new Float64Array(n);
  upTo[0] = Infinity;
  upTo[n - 1] = Infinity;
  // Segments to split: first, last and the tolerance its parent segment was split up to.
  const stack: number[] = [0, n - 1, Infinity];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    const last = stack.pop()!;
    const first = stack.pop()!;
    if (last - first < 2) continue;
    const ax = lng[first]! * kx;
    const ay = lat[first]!;
    const dx = lng[last]! * kx - ax;
    const dy = lat[last]! - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD2 = tolerance * tolerance;
    for (let i = first + 1; i < last; i++) {
      const px = lng[i]! * kx - ax;
      const py = lat[i]! - ay;
      let d2: number;
      if (len2 === 0) {
        d2 = px * px + py * py;
      } else {
        // Distance to the segment (not the infinite line): a track can double back on itself.
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        d2 = ex * ex + ey * ey;
      }
      if (d2 > worstD2) {
        worstD2 = d2;
        worst = i;
      }
    }
    if (worst >= 0) {
      const split = Math.min(worstD2, parent);
      upTo[worst] = split;
      stack.push(first, worst, split, worst, last, split);
    }
  }
  return upTo;
}

function marked(n: number, keep: Iterable<number>): Uint8Array {
  const m = new Uint8Array(n);
  for (const i of keep) if (i >= 0 && i < n) m[i] = 1;
  return m;
}

function kept(upTo: Float64Array, tol2: number, keep: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < upTo.length; i++) if (upTo[i]! > tol2 || keep[i]) out.push(i);
  return out;
}

/**
 * Simplifies with a tolerance that starts near a screen pixel at the track's full extent
 * and doubles until at most `maxVertices` remain (the `keep` indices always stay, so
 * more may remain when they alone exceed it).
 */
export function simplifyToBudget(lat: ArrayLike<number>, lng: ArrayLike<number>, maxVertices: number, keep: readonly number[] = []): number[] {
  return simplifyToBudgets(lat, lng, [maxVertices], keep)[0]!;
}

/** simplifyToBudget for several budgets of one track (a line and its dots), in one pass over it. */
export function simplifyToBudgets(lat: ArrayLike<number>, lng: ArrayLike<number>, budgets: readonly number[], keep: readonly number[] = []): number[][] {
  const n = lat.length;
  const every = (): number[] => Array.from({ length: n }, (_, i) => i);
  if (budgets.every((b) => n <= b)) return budgets.map(every);
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (let i = 0; i < n; i++) {
    minLat = Math.min(minLat, lat[i]!);
    maxLat = Math.max(maxLat, lat[i]!);
    minLng = Math.min(minLng, lng[i]!);
    maxLng = Math.max(maxLng, lng[i]!);
  }
  const diagonal = Math.hypot(maxLat - minLat, (maxLng - minLng) * Math.cos(((minLat + maxLat) * Math.PI) / 360));
  const first = Math.max(diagonal / 4000, 1e-6);
  const upTo = keptUpTo(lat, lng, first);
  const keeping = marked(n, keep);
  return budgets.map((maxVertices) => {
    if (n <= maxVertices) return every();
    for (let tolerance = first; ; tolerance *= 2) {
      const tol2 = tolerance * tolerance;
      let count = 0;
      for (let i = 0; i < n; i++) if (upTo[i]! > tol2 || keeping[i]) count++;
      if (count <= Math.max(maxVertices, keep.length + 2) || tolerance > diagonal) return kept(upTo, tol2, keeping);
    }
  });
}

/**
 * Line simplification for drawing (Douglas-Peucker): a long track is drawn with the
 * vertices that change its shape, while every report stays in the page for popups.
 * Iterative (an explicit stack), so a 100,000-point track cannot overflow the call stack.
 */

/**
 * Indices (ascending) of the vertices to keep: the first, the last, every index in
 * `keep`, and the points more than `tolerance` from the simplified line. Coordinates
 * are degrees; distances are measured on a local equirectangular projection, in degrees
 * of latitude (1e-5 ≈ 1.1 m).
 */
export function simplifyIndices(lat: ArrayLike<number>, lng: ArrayLike<number>, tolerance: number, keep: Iterable<number> = []): number[] {
  const n = lat.length;
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const kx = Math.cos(((lat[0] ?? 0) * Math.PI) / 180);
  const marked = new Uint8Array(n);
  marked[0] = 1;
  marked[n - 1] = 1;
  for (const i of keep) if (i >= 0 && i < n) marked[i] = 1;
  const tol2 = tolerance * tolerance;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    if (last - first < 2) continue;
    const ax = lng[first]! * kx;
    const ay = lat[first]!;
    const dx = lng[last]! * kx - ax;
    const dy = lat[last]! - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD2 = tol2;
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
      marked[worst] = 1;
      stack.push(first, worst, worst, last);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (marked[i]) out.push(i);
  return out;
}

/**
 * Simplifies with a tolerance that starts near a screen pixel at the track's full extent
 * and doubles until at most `maxVertices` remain (the `keep` indices always stay, so
 * more may remain when they alone exceed it).
 */
export function simplifyToBudget(lat: ArrayLike<number>, lng: ArrayLike<number>, maxVertices: number, keep: readonly number[] = []): number[] {
  const n = lat.length;
  if (n <= maxVertices) return Array.from({ length: n }, (_, i) => i);
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
  let tolerance = Math.max(diagonal / 4000, 1e-6);
  for (;;) {
    const kept = simplifyIndices(lat, lng, tolerance, keep);
    if (kept.length <= Math.max(maxVertices, keep.length + 2) || tolerance > diagonal) return kept;
    tolerance *= 2;
  }
}

/**
 * Reanchoring a move's candidate stop (motion.ts): a fix beyond the stop radius of the
 * candidate's first fix asks for the first later fix that has every fix after it, and the new
 * one, within the radius. A unit reporting every second holds about eight fixes within the
 * radius, so asking each pair again at every fix was 28 measures a report. Kept here instead,
 * from fix to fix: whether each held fix has every later one within the radius (near), and the
 * way along the legs to it (path, km from an earlier fix). A fix less than the radius along the
 * way from another is within the radius of it (no great circle is longer than a way between its
 * ends), so a new fix is measured only against the held fixes farther along the way than the
 * radius, and each pair once.
 */
import { fartherThan, legKm, type Fix } from './fix.js';

export class Anchors {
  private readonly near: boolean[] = [];
  private readonly path: number[] = [];
  /** The candidate array near and path describe (its first near.length fixes): any other is measured afresh. */
  private of: Fix[] | undefined;

  /** No candidate (the unit stands): nothing of the last one is kept. */
  forget(): void {
    if (this.of === undefined) return;
    this.of = undefined;
    this.near.length = 0;
    this.path.length = 0;
  }

  /** Takes the first n fixes off the candidate c (the array itself, as near and path follow it). */
  drop(c: Fix[], n: number): void {
    // a moving unit drops one fix a report: shift() makes no array of the removed, as splice() does
    if (n === 1) c.shift();
    else c.splice(0, n);
    if (this.of !== c) return;
    if (n === 1) {
      this.near.shift();
      this.path.shift();
    } else {
      this.near.splice(0, n);
      this.path.splice(0, n);
    }
  }

  /** The smallest i ≥ 1 such that the fixes of c from i on and f are within radiusKm of fix i; c's length when none is. */
  first(c: Fix[], f: Fix, radiusKm: number): number {
    const near = this.near;
    const path = this.path;
    if (this.of !== c) {
      this.forget();
      this.of = c;
    }
    // fixes less than this along the way from each other are within the radius (a margin far wider than the rounding of legs and sums)
    const reach = radiusKm * (1 - 1e-6);
    for (let j = near.length; j < c.length; j++) {
      const b = c[j] as Fix;
      const way = j === 0 ? 0 : (path[j - 1] as number) + legKm(c[j - 1] as Fix, b);
      // the ways grow along the candidate: from the first fix within reach of b on, all are
      for (let k = 0; k < j && way - (path[k] as number) >= reach; k++) if (near[k] && fartherThan(c[k] as Fix, b, radiusKm)) near[k] = false;
      path.push(way);
      near.push(true);
    }
    const last = c.length - 1;
    const way = (path[last] as number) + legKm(c[last] as Fix, f);
    for (let i = 1; i < c.length; i++) if (near[i] && (way - (path[i] as number) < reach || !fartherThan(c[i] as Fix, f, radiusKm))) return i;
    return c.length;
  }
}

/**
 * A fleet run's records in the order of its units (did order), whatever order the units finish
 * in: the first unfinished unit writes through as its records come; a later unit's records are
 * held until every unit before it has finished. Reports are small per unit, so what is held is
 * small; the first unit's rows still stream as they complete.
 */
export class InUnitOrder<T> {
  private next = 0;
  private readonly held = new Map<number, T[]>();
  private readonly finished = new Set<number>();
  /** Every push and finish, one after another: a unit that becomes first waits until what it held is written. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly write: (rec: T) => Promise<void>) {}

  /** A record of the unit at `index` (its place in the run's unit list). */
  push(index: number, rec: T): Promise<void> {
    return this.serially(async () => {
      if (index === this.next) await this.write(rec);
      else this.heldFor(index).push(rec);
    });
  }

  /** The unit at `index` has no more records (it finished or failed). */
  finish(index: number): Promise<void> {
    return this.serially(async () => {
      this.finished.add(index);
      while (this.finished.has(this.next)) {
        this.next += 1;
        for (const rec of this.held.get(this.next) ?? []) await this.write(rec);
        this.held.delete(this.next);
      }
    });
  }

  private heldFor(index: number): T[] {
    let list = this.held.get(index);
    if (list === undefined) this.held.set(index, (list = []));
    return list;
  }

  private serially(op: () => Promise<void>): Promise<void> {
    const done = this.tail.then(op);
    // A failed write fails its caller; the next operation still runs (and meets the stream's failure itself).
    this.tail = done.catch(() => undefined);
    return done;
  }
}

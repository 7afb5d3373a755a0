/**
 * The service's clock for judging silence (stale) and for where a watch or a wait starts.
 * A reply's Date header is the service's clock only when nothing stands in between: a proxy
 * sets its own, and one an hour ahead would call every unit stale at once and start a watch
 * past an hour of reports. So the header is believed only as far as the service's own data
 * (the newest report date it has shown: its clock had reached that) or this machine's clock
 * bears it out. Either can only lower the header, never raise it, so a local clock that runs
 * behind costs at most a later "stale", never a report.
 */
export class ServiceClock {
  /** The newest report date the service has shown, unix seconds. */
  private proven = Number.NEGATIVE_INFINITY;

  constructor(
    /** This machine's clock, ms. */
    private readonly localNow: () => number,
  ) {}

  /** A report date the service showed (a unit's last report, a report of a reply). */
  saw(date: number | null | undefined): void {
    if (typeof date === 'number' && Number.isFinite(date) && date > this.proven) this.proven = date;
  }

  /** The service's time by a reply's Date header (unix seconds), bounded as above; undefined without one. */
  at(header: number | undefined): number | undefined {
    if (header === undefined) return undefined;
    return Math.min(header, Math.max(this.proven, Math.floor(this.localNow() / 1000)));
  }
}

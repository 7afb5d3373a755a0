/**
 * What the zone means, said once for every help text that reads or prints times; the
 * options themselves (--tz, the window) are declared in shared-options.ts. The zone rule itself (--tz, else TZ,
 * else the profile's tz, else the system's) is resolved by ctx.timeZone().
 */
/** What the zone rule means, for help texts. */
export const ZONE_HELP =
  'Times typed without an offset (2026-11-25, 2026-11-25T10:00), today, yesterday and weekday names (monday: the\n' +
  'most recent Monday, today included) are in the zone: --tz, else TZ, else the profile\'s tz (trackctl config set tz\n' +
  'Europe/Berlin), else this machine\'s. Z, offsets, unix seconds and durations (2d, 3h ago) are absolute. Tables\n' +
  'show clock times in that zone (named in the header); json, ndjson and csv keep unix seconds, piped tables RFC 3339 UTC.';

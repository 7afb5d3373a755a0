/**
 * The time options shared by every command that reads or prints times, declared once here:
 * the zone (--tz) and the window (--from, --to, --tz). The zone rule itself (--tz, else TZ,
 * else the profile's tz, else the system's) is resolved by ctx.timeZone().
 */
import { Option, type Command } from 'commander';

/** What the zone rule means, for help texts. */
export const ZONE_HELP =
  'Times typed without an offset (2026-11-25, 2026-11-25T10:00), today, yesterday and weekday names (monday: the\n' +
  'most recent Monday, today included) are in the zone: --tz, else TZ, else the profile\'s tz (trackctl config set tz\n' +
  'Europe/Berlin), else this machine\'s. Z, offsets, unix seconds and durations (2d, 3h ago) are absolute. Tables\n' +
  'show clock times in that zone (named in the header); json, ndjson and csv keep unix seconds, piped tables RFC 3339 UTC.';

/** --tz: the zone times are read and shown in (cmd.addOption(zoneOption())). */
export function zoneOption(): Option {
  return new Option('--tz <zone>', "IANA time zone of the times typed and shown, e.g. Europe/Berlin (default: TZ, the profile's tz, this machine's)");
}

/** --from, --to and --tz: a window of time read in the invocation's zone. */
export function windowOptions(cmd: Command, help: { from: string; to: string }): Command {
  return cmd.option('--from <time>', help.from).option('--to <time>', help.to).addOption(zoneOption());
}

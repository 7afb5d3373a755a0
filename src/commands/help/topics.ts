/**
 * Help topics (`trackctl help <topic>`). The environment variables, exit codes
 * and files are data, so the man pages render the same facts.
 */

export interface Entry {
  name: string;
  text: string;
}

export const ENVIRONMENT: readonly Entry[] = [
  { name: 'TRACKCTL_PROFILE', text: 'configuration profile to use, like -p/--profile' },
  { name: 'TRACKCTL_BASE_URL', text: 'service address, like --base-url; overrides the profile\'s base-url' },
  { name: 'TRACKCTL_SANDBOX', text: '1 runs every command against the embedded sandbox, like --sandbox' },
  { name: 'TRACKCTL_OUTPUT', text: 'default output format (table, json, ndjson, csv, yaml), like -o/--output' },
  { name: 'TRACKCTL_TOKEN', text: 'an access token for the /v2/ endpoints; nothing is read from or written to the keychain' },
  { name: 'TRACKCTL_EMAIL', text: 'account e-mail address for unattended sign-in (with TRACKCTL_PASSWORD)' },
  { name: 'TRACKCTL_PASSWORD', text: 'account password for unattended sign-in (with TRACKCTL_EMAIL)' },
  { name: 'TRACKCTL_TIMEOUT', text: 'per-request timeout, e.g. 30s, 500ms, 2m, like --timeout' },
  { name: 'TRACKCTL_COMPLETE_TIMEOUT', text: 'how long shell completion waits for ids from the service before offering none (default 1.5s)' },
  { name: 'TRACKCTL_RETRIES', text: 'retries for idempotent requests (0-10), like --retries' },
  { name: 'TRACKCTL_CREDENTIAL_STORE', text: 'where secrets are kept: auto (keychain, else file), keychain or file' },
  { name: 'TRACKCTL_CLIENT_ID', text: 'OAuth client id; overrides the profile\'s client-id' },
  { name: 'TRACKCTL_SHARE_URL', text: 'base of public share links; overrides the profile\'s share-url' },
  { name: 'TRACKCTL_CONFIG_DIR', text: 'directory of config.json (default $XDG_CONFIG_HOME/trackctl); the data directory follows it' },
  { name: 'TRACKCTL_DATA_DIR', text: 'directory of the credential file, locks and sandbox state (default $XDG_DATA_HOME/trackctl)' },
  { name: 'TRACKCTL_DEBUG', text: 'set to print stack traces of unexpected errors' },
  { name: 'TRACKCTL_NO_CODE_CACHE', text: 'set to keep no compiled code between runs (kept by default in $XDG_CACHE_HOME/trackctl/code, ~/.cache/trackctl/code: start-up a third quicker)' },
  { name: 'NO_COLOR', text: 'set (non-empty) to turn colour off, like --no-color' },
  { name: 'FORCE_COLOR', text: 'set (not 0) to keep colour on a terminal despite NO_COLOR or --no-color; piped tables stay plain tab-separated text' },
  { name: 'TERM', text: 'dumb turns colour off' },
  { name: 'TZ', text: "the zone times are typed and shown in (IANA name), unless --tz is given; over the profile's tz" },
  { name: 'CI', text: 'set (not 0 or false) to never prompt, as in CI pipelines' },
  { name: 'HTTPS_PROXY', text: 'proxy for requests to the service (also https_proxy, HTTP_PROXY)' },
  { name: 'NO_PROXY', text: 'comma-separated hosts reached without the proxy' },
  { name: 'XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME', text: 'base directories of the configuration, data and cache directories' },
  { name: 'BROWSER', text: 'the browser trackctl map opens pages with (default: xdg-open, open or start)' },
];

export const EXIT_CODES: readonly Entry[] = [
  { name: '0', text: 'success' },
  { name: '1', text: 'failed, here or at the service: the service refused or failed, or a local write failed (the message names the file)' },
  { name: '2', text: 'usage or invalid input (no request sent)' },
  { name: '3', text: 'not signed in, or credentials rejected and not renewable' },
  { name: '4', text: 'not found' },
  { name: '6', text: 'network failure or timeout after retries' },
  { name: '7', text: 'partial failure in a bulk operation (the report says which items)' },
  { name: '8', text: 'timed out: wait --timeout ran out before the condition held' },
  { name: '130', text: 'interrupted (Ctrl-C) or a confirmation declined; nothing was changed' },
  { name: '141', text: 'the reader of stdout went away (| head); nothing is printed, as for a program killed by SIGPIPE' },
  { name: '143', text: 'terminated (SIGTERM): watch, wait and following runs stop as on Ctrl-C, saving what was delivered' },
];

export const FILES: readonly Entry[] = [
  { name: '$XDG_CONFIG_HOME/trackctl/config.json', text: 'profiles and their settings, never secrets (trackctl config path prints it; TRACKCTL_CONFIG_DIR moves it)' },
  { name: '$XDG_DATA_HOME/trackctl/credentials.json', text: 'the credential file, mode 0600, used only where no OS keychain is reachable or credential-store is file' },
  { name: '$XDG_DATA_HOME/trackctl/sandbox-state.json', text: 'state of the embedded sandbox (--sandbox, sandbox start), removed by sandbox reset' },
];

function entries(list: readonly Entry[], width: number): string {
  return list.map((e) => `  ${e.name.padEnd(width)}  ${e.text}`).join('\n');
}

const ENVIRONMENT_TEXT = `Environment variables

Flags win over the environment, the environment over the profile, the profile over defaults.

${entries(ENVIRONMENT, 26)}
`;

const FORMATTING_TEXT = `Output formats and fields

stdout carries data only; progress, warnings and errors go to stderr.

  -o, --output FORMAT   table   default on a terminal: fits the width, colour, clock times in the
                                zone (--tz, TZ, the profile's tz), durations as 1h 12m, ages of
                                last reports; piped, plain tab-separated rows, RFC 3339 UTC
                                times, seconds, no colour
                        json    a list prints an array of records; get/create print one record
                        ndjson  one record a line, flushed as it arrives (history streams)
                        csv     RFC 4180 with a header row; formula-like cells neutralised
                        yaml    the records as a YAML sequence or mapping
                        wide    a list's table with every column, none dropped for width
                        name    a list's records as kind/id (device/2004), one a line
                        history also writes geojson, gpx and kml
                        html    a map page (history, units); on a terminal, to a file
                        custom-columns=HEADER:.path[,HEADER:.path...]   see below
                        custom-columns-file=FILE
  --fields a,b,c        only these fields, in this order (checked before any request)
  --no-header           omit the header row (table, csv, custom columns)
  --raw                 print the service's reply body unchanged
  --no-color            no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it)
  --jq EXPR             the jq language over the JSON output (below)
  --template TEMPLATE   a Handlebars template over the JSON output (below)

Set a default per profile with: trackctl config set output json (or TRACKCTL_OUTPUT).
Text that came from the service is stripped of terminal control sequences.

--jq EXPR (jq 1.8 itself, built in: no jq needed on the machine)
  Runs on the document -o json prints (a list is one array), or with -o ndjson on each
  record; watch runs it on each event. --jq implies JSON: any other -o is an error, and a
  TRACKCTL_OUTPUT or profile default gives way. A string result prints raw, anything else
  as one line of compact JSON (what jq -r -c and gh --jq print). A jq error (at compile or
  run time) exits 2 with jq's message; on a stream, after the records before the failing one.
  With --raw (and on api), the reply body as sent is the document.

-o custom-columns=HEADER:.path,...   (kubectl's syntax)
  A table of the given paths of each record as -o json shows it: .name, .position.lat,
  .groups[0], .groups[-1], .groups[*] (all, comma-separated), {.name}. A missing or null
  value prints <none>. Drawn as the table format draws: fitted on a terminal, tab-separated
  rows when piped; --no-header drops the header. custom-columns-file=FILE reads the headers
  from the file's first line and the paths from its second, separated by blanks.

--template TEMPLATE   (Handlebars: https://handlebarsjs.com/guide/)
  Rendered once with the document as -o json has it ({{#each .}}...{{/each}} over a list),
  or with -o ndjson once per record (and per watch event), each ending in a newline.
  String literals take Go's escapes as gh's do: {{"\\n"}}, {{join "\\t" groups}}.
  Helpers (gh's):
    {{tablerow a b ...}}        a row of an aligned table (tab-separated when piped),
                                drawn at {{tablerender}} or at the end
    {{timeago t}}               "5 min ago" (t: unix seconds or an ISO time)
    {{timefmt "%Y-%m-%d %H:%M" t}}   strftime in UTC (%Y %m %d %H %M %S %F %T %a %b %j %s)
    {{truncate 20 text}}        cut to 20 cells with "…"
    {{join ", " list}}
    {{color "red+bold" text}}   colour on a terminal (chalk style names), plain otherwise
    {{hyperlink url text}}      a terminal link; piped, the text (the url if none)
  Fields, #if, #unless, #with and lookup are Handlebars' own; a misspelt helper is an
  error before anything is sent.

Examples:
  $ trackctl devices list -o csv --fields did,name,lastBatteryLevel --no-header
  $ trackctl users list -o ndjson | jq -r .email
  $ trackctl groups get 101 --raw
  $ trackctl units --jq '.[] | select(.lastBatteryLevel != null and .lastBatteryLevel < 20) | .name'
  $ trackctl history 2004 --from 1d -o ndjson --jq 'select(.properties.speed > 90) | .properties.date'
  $ trackctl devices list -o custom-columns=ID:.did,NAME:.name,GROUP:.groupMember[0]
  $ trackctl devices list --template '{{#each .}}{{tablerow did name (timeago lastGPSTimestamp)}}{{/each}}'
  $ trackctl watch --jq 'select(.event == "sos") | .name'
`;

const EXIT_CODES_TEXT = `Exit codes

${entries(EXIT_CODES, 4)}

Bulk commands (delete, import, apply) carry on past failures, report each failed
item, and exit 7 when some failed. Ctrl-C during one also exits 130, but the items
before it were done: a bulk delete finishes the item in flight and reports which;
re-run an import with --skip-existing, or an apply, to finish the rest.

Commands over several units or ids (history, report, watch, devices delete, ...)
name each failure once on stderr; when every one failed the same way they exit with
that failure's code (4 when none was found, with nothing on stdout), when some
failed, 7. A reader that leaves (| head) ends any command quietly with 141, as a shell
reports SIGPIPE; history, report and watch exit 1 when their output's target failed
otherwise (a full disk). Either way, with --checkpoint nothing of such a stream run is
saved.
`;

const AUTH_TEXT = `Signing in and credentials

trackctl login signs in two ways (--method both, the default): the OAuth password grant
gives a bearer token for the /v2/ endpoints, and POST /api/login/ gives a session cookie
for the endpoints without /v2/. --method token or session performs only one.

Where a credential comes from, first match wins:
  1. flags and stdin (--email, --password-stdin)
  2. the environment: TRACKCTL_TOKEN (an access token), or TRACKCTL_EMAIL with
     TRACKCTL_PASSWORD (signs in as needed); the keychain is then not touched at all
  3. the OS keychain (the Secret Service on Linux), per profile
  4. the file fallback: credentials.json in the data directory, mode 0600, used where no
     keychain is reachable (headless Linux, containers), with a one-time warning

credential-store (config key or TRACKCTL_CREDENTIAL_STORE): auto (keychain, else file),
keychain (only the keychain) or file (only the file). Secrets never go in config.json.

Renewal: an access token that expires within a minute is refreshed first (refresh grant);
a 401 triggers one renewal and one retry; parallel processes renew once, under a lock.
Sessions renew unattended only with a saved password (login --save-password) or
TRACKCTL_EMAIL + TRACKCTL_PASSWORD. When nothing renews, the command exits 3.

trackctl login status shows which source is in use and when each token expires;
trackctl logout forgets this profile's credentials, logout --all every profile's.

Examples:
  $ trackctl login
  $ echo "$PASSWORD" | trackctl login --email ops@example.com --password-stdin
  $ TRACKCTL_TOKEN=$(trackctl token print) ./script.sh
  $ trackctl config set credential-store file -p ci
`;

export interface Topic {
  name: string;
  summary: string;
  text: string;
}

export const TOPICS: readonly Topic[] = [
  { name: 'environment', summary: 'environment variables trackctl reads', text: ENVIRONMENT_TEXT },
  { name: 'formatting', summary: 'output formats, --fields, --raw, --jq, --template, custom columns', text: FORMATTING_TEXT },
  { name: 'exit-codes', summary: 'what each exit status means', text: EXIT_CODES_TEXT },
  { name: 'auth', summary: 'signing in, where credentials come from, renewal', text: AUTH_TEXT },
];

/** Appended to the root help. */
export const ROOT_HELP_AFTER = `
Help topics (trackctl help <topic>):
${TOPICS.map((t) => `  ${t.name.padEnd(12)}  ${t.summary}`).join('\n')}

Exit codes: 0 ok, 1 failed (here or at the service), 2 usage, 3 auth, 4 not found, 6 network, 7 partial
failure, 8 timed out (wait), 130 interrupted, 141 reader gone, 143 terminated (trackctl help
exit-codes). Man pages: man trackctl.

Examples:
  $ trackctl login
  $ trackctl devices list
  $ trackctl help devices list
  $ trackctl --sandbox devices list -o json
`;

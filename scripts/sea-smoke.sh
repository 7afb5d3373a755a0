#!/usr/bin/env bash
# Smoke test of the single executable (npm run build:sea) on a PATH with no node: --version,
# --sandbox units, a history export, and the keychain (a login stored in a real Secret Service,
# found there by secret-tool, used by the next command). Usage: scripts/sea-smoke.sh [EXECUTABLE]
# Needs jq, dbus-run-session, gnome-keyring-daemon and secret-tool (see .ci/run).
set -euo pipefail
exe=$(realpath "${1:-dist-sea/trackctl}")
work=$(mktemp -d)
trap 'kill "${sandbox_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/empty-path" "$work/home"
# Only the executable: no node, and nothing else trackctl could lean on.
t() {
  env -i HOME="$work/home" PATH="$work/empty-path" TRACKCTL_CONFIG_DIR="$work/config" TRACKCTL_DATA_DIR="$work/data" \
    ${DBUS_SESSION_BUS_ADDRESS:+DBUS_SESSION_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS"} "$exe" "$@"
}
export -f t
export exe work
if env -i PATH="$work/empty-path" sh -c 'command -v node' >/dev/null 2>&1; then echo "sea-smoke: node is on the test PATH" >&2; exit 1; fi

version=$(t --version)
[ "$version" = "$(jq -r .version package.json)" ] || { echo "sea-smoke: --version printed '$version'" >&2; exit 1; }
t --sandbox units -o json >"$work/units.json"
jq -e 'length > 5' "$work/units.json" >/dev/null
t --sandbox history 2004 --from 2d -o geojson >"$work/history.geojson"
jq -e '.type == "FeatureCollection" and (.features | length) > 0' "$work/history.geojson" >/dev/null
t --sandbox history 2004 --from 2d --out-dir "$work/export" --partition day -o csv
ls "$work/export"/2004/*.csv >/dev/null
echo "sea-smoke: --version, --sandbox units and history export passed"

# The keychain: a private session bus with an unlocked keyring in a throwaway XDG_DATA_HOME.
t sandbox start --memory >"$work/sandbox.out" 2>/dev/null &
sandbox_pid=$!
for _ in $(seq 100); do grep -q '^base-url: ' "$work/sandbox.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^base-url: //p' "$work/sandbox.out")
[ -n "$base" ] || { echo "sea-smoke: the sandbox did not start" >&2; exit 1; }
export base
XDG_DATA_HOME="$work/keyrings" dbus-run-session -- bash -euo pipefail -c '
  echo -n smoke | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  echo demo | t --base-url "$base" login --email demo@example.com --password-stdin -p kc
  secret-tool lookup service trackctl username kc | jq -e ".accessToken | length > 20" >/dev/null
  [ ! -e "$work/data/credentials.json" ] || { echo "sea-smoke: credentials went to the file, not the keychain" >&2; exit 1; }
  t --base-url "$base" -p kc login status -o json | jq -e ".source == \"keychain\"" >/dev/null
  t --base-url "$base" -p kc devices list -o json | jq -e "length > 0" >/dev/null
'
ls "$work/home/.cache/trackctl/native/"keyring-*.node >/dev/null
echo "sea-smoke: keychain passed ($(du -m "$exe" | cut -f1) MB executable)"

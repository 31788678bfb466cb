#!/usr/bin/env bash
# Runs the unit and integration tests under another Node major, taken from the `node` npm
# package, on a copy of this checkout in a temp dir that is removed after. The copy gets its own
# `npm ci`: better-sqlite3 is a native addon built for one Node ABI, so this checkout's
# node_modules stay as they are, built for the Node on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

major=${1:-22}
# The versions verified here; bump one with a run of this script. Not 24: built against the
# headers of Node 24.19 or newer, better-sqlite3 12 aborts the process when the garbage
# collector frees a statement ("Assertion failed: (env) != nullptr").
case "$major" in
  22) version=22.23.3 ;;
  *)
    echo "usage: $0 [22]: no verified Node version for \"$major\"" >&2
    exit 2
    ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/cch-node$major-XXXXXX")
trap 'rm -rf "$work"' EXIT

npm install --prefix "$work/node" --no-save --no-package-lock --loglevel=error "node@$version"
bin="$work/node/node_modules/.bin"
# The package also ships the headers; node-gyp builds better-sqlite3 against them, not against
# those of the system's Node (an npmrc may name that one as nodedir).
platform=$("$bin/node" -p 'process.platform + "-" + process.arch')
nodedir=$work/node/node_modules/node/node_modules/node-$platform
[ -f "$nodedir/include/node/node.h" ] || { echo "no Node headers in $nodedir" >&2; exit 1; }

# The files as they are now, committed or not, without what is ignored (node_modules, dist).
mkdir "$work/hub"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do
    if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
  done |
  tar --null -T - -cf - | tar -xf - -C "$work/hub"

cd "$work/hub"
export PATH="$bin:$PATH" npm_config_nodedir="$nodedir"
echo "unit and integration tests on Node $(node --version)"
npm ci --no-audit --no-fund
npx vitest run test/unit test/integration

#!/usr/bin/env bash
# Runs the end-to-end tests against another claude CLI, `scripts/test-on-cli.sh <version|latest>
# [test files...]` (all of test/e2e by default): it installs `@anthropic-ai/claude-code@<version>`
# into a temp dir, removed after, and points the tests at that claude with
# CLAUDE_HUB_TEST_CLAUDE_BIN (read by harness/claude-config.ts). The lockfile and node_modules
# stay as they are: the pinned CLI is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "usage: $0 <version|latest> [test files...]" >&2
  exit 2
fi
version=$1
shift
if [ "$version" = latest ]; then
  version=$(npm view @anthropic-ai/claude-code version)
fi
case "$version" in
  [0-9]*.[0-9]*.[0-9]*) ;;
  *)
    echo "not a version: \"$version\"" >&2
    exit 2
    ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/cch-cli-$version-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Its postinstall puts the native binary of this platform in place of bin/claude.exe.
npm install --prefix "$work" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
  "@anthropic-ai/claude-code@$version"
export CLAUDE_HUB_TEST_CLAUDE_BIN=$work/node_modules/.bin/claude
printed=$("$CLAUDE_HUB_TEST_CLAUDE_BIN" --version)
case "$printed" in
  "$version "*) ;;
  *)
    echo "the claude installed prints \"$printed\", not $version" >&2
    exit 1
    ;;
esac
echo "end-to-end tests on claude $printed"
npx vitest run "${@:-test/e2e}"

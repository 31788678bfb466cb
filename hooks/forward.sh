#!/bin/sh
# Forwards one hook event (JSON on stdin) to the hub: `forward.sh http://127.0.0.1:4000/hooks`.
# Claude Code runs it for the events that cannot use HTTP hooks (SessionStart, Setup). It prints
# nothing (a SessionStart hook's output would become context), gives up after 2 seconds and
# always exits 0, so a slow or stopped hub never stalls Claude.
curl --silent --output /dev/null --max-time 2 --request POST \
  --header 'Content-Type: application/json' \
  --header "Authorization: Bearer ${CLAUDE_HUB_HOOK_SECRET:-}" \
  --data-binary @- "${1:-http://127.0.0.1:4000/hooks}" >/dev/null 2>&1
exit 0

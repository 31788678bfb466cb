#!/bin/sh
# Forwards one hook event (JSON on stdin) to the hub: `forward.sh URL [TOKEN_FILE]`.
# Claude Code runs it for the events that cannot use HTTP hooks (SessionStart, Setup). The
# secret is a session's own (CLAUDE_HUB_HOOK_SECRET, set in the sessions the hub starts) or, for
# the installed global hooks, the hub's hook token read from TOKEN_FILE; it reaches curl through
# a config on fd 3, never its command line, which `ps` shows. The other headers say which claude
# process, tmux pane and hub session the event comes from. It prints nothing (a SessionStart
# hook's output would become context), gives up after 2 seconds and always exits 0, so a slow or
# stopped hub never stalls Claude.
if [ -n "${2:-}" ]; then
  secret=$(cat "$2" 2>/dev/null)
else
  secret=${CLAUDE_HUB_HOOK_SECRET:-}
fi
curl --silent --output /dev/null --max-time 2 --request POST --config /dev/fd/3 \
  --header 'Content-Type: application/json' \
  --data-binary @- "${1:-http://127.0.0.1:4000/hooks}" >/dev/null 2>&1 3<<EOF_CONFIG
header = "Authorization: Bearer ${secret}"
header = "X-Claude-Hub-Pid: ${CLAUDE_PID:-}"
header = "X-Claude-Hub-Tmux: ${TMUX:-}"
header = "X-Claude-Hub-Tmux-Pane: ${TMUX_PANE:-}"
header = "X-Claude-Hub-Session: ${CLAUDE_HUB_SESSION_ID:-}"
EOF_CONFIG
exit 0

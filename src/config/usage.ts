import { optionSpecs, type OptionSpec } from './option-specs.js';

function shownDefault(spec: OptionSpec): string {
  const empty = spec.default === '' || (Array.isArray(spec.default) && spec.default.length === 0);
  return empty ? '' : `, default ${String(spec.default)}`;
}

/** The text of `--help`: the commands, then every option of serve from the option table. */
export function usage(): string {
  const lines = optionSpecs.map(
    (spec) => `  --${spec.flag.padEnd(22)} ${spec.description} [${spec.env}${shownDefault(spec)}]`,
  );
  return `Usage: claude-code-hub [serve] [options]
       claude-code-hub <command> [arguments] (--help for each)

Runs the GraphQL hub for Claude Code sessions, or talks to a running one.

Commands:
  serve       run the hub (the default)
  ls          list sessions             new        start a session
  send        queue a message           ask        send a message, print the reply
  tail        follow a session's events stop       stop a session
  resume      resume a session          attention  sessions that need a person
  diff        what a session changed    commit     commit a session's worktree
  approve     allow a permission request
  deny        deny a permission request
  turns       follow the turns of one session, or of all, as they end
  go          take this terminal's tmux client to a session's pane
  usage       tokens and cost of the completed turns by label, token, model, day or session
  hooks       install, uninstall or check the global hooks (every claude reports here)
  channel listen  print a channel's messages as they come; the channel is open meanwhile
  channel send    queue a message from a channel
  channel ls      list the open channels (also: channels)
  rules ls        list the permission rules in the order they are tried
  rules add       add a permission rule, or those of a policy file (--file)
  rules rm        remove a permission rule
  rules enable    put a permission rule in force; rules disable: out of force
  rules dry-run   what proposed rules would have decided of the stored tool calls
  doctor          check what the hub needs here: tmux, claude and its login, the hub, the
                  data dir, tokens, the global hooks, Node

Options of serve:
${lines.join('\n')}
  --help                   Show this text.
`;
}

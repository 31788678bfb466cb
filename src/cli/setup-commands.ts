import type { Command } from './command.js';
import { runHooksAction } from './hooks-command.js';

/** The commands on this machine's setup: the global hooks, and the checks of what the hub needs. */
export const setupCommands: Record<string, Command> = {
  hooks: {
    args: '<install|uninstall|status> [--scope user|project]',
    summary:
      "The hub's global hooks, which make every claude started by hand report to the hub. install goes through the hub; uninstall and status read the file here and work without it. status exits 1 unless the hooks are in and their hub answers.",
    positionals: 1,
    options: { scope: { type: 'string' } },
    optionHelp: [
      '--scope user     (the default) settings.json in CLAUDE_CONFIG_DIR, else ~/.claude',
      '--scope project  .claude/settings.local.json of the current directory',
    ],
    run: (client, values, [action], io, env) =>
      runHooksAction(client, action!, values.scope, io, env),
  },
  doctor: {
    args: '[--claude-bin BIN] [--data-dir DIR]',
    summary:
      'Check what the hub needs here, one line each with its fix: tmux, curl, claude (its version and login), the data dir, tokens, the hub at --url (health and readiness), the global hooks, Node. Exits 1 when something blocks use (a ✗ line), 0 with warnings (!) alone.',
    positionals: 0,
    options: { 'claude-bin': { type: 'string' }, 'data-dir': { type: 'string' } },
    optionHelp: [
      '--claude-bin BIN  the claude the hub runs [CLAUDE_HUB_CLAUDE_BIN, default claude on PATH]',
      "--data-dir DIR    the hub's data dir [CLAUDE_HUB_DATA_DIR, default ~/.local/share/claude-code-hub]",
    ],
    async run(client, values, _positionals, io, env) {
      const { runDoctor } = await import('./doctor-probe.js');
      const source = typeof values.token === 'string' ? '--token' : 'CLAUDE_HUB_TOKEN';
      return runDoctor(
        {
          env,
          hubUrl: client.url,
          token: client.token ? { value: client.token, source } : null,
          claudeBin: values['claude-bin'] as string | undefined,
          dataDir: values['data-dir'] as string | undefined,
        },
        io,
      );
    },
  },
};

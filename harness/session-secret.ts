import { execa } from 'execa';

/** Reads a session's hook secret from its tmux environment, as claude's hooks see it. */
export async function hookSecret(socket: string, tmuxSession: string): Promise<string> {
  const { stdout } = await execa('tmux', [
    '-L',
    socket,
    'show-environment',
    '-t',
    tmuxSession,
    'CLAUDE_HUB_HOOK_SECRET',
  ]);
  return stdout.slice(stdout.indexOf('=') + 1);
}

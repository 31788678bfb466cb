import { execa } from 'execa';

/**
 * The tmux client of the terminal this command runs in, by name, so that focusSession moves
 * this terminal and not the client that was active last; null outside tmux (no `$TMUX`).
 */
export async function ownTmuxClient(
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  if (!env.TMUX) return null;
  try {
    const { stdout } = await execa('tmux', ['display-message', '-p', '#{client_name}'], { env });
    const name = stdout.trim();
    if (!name) throw new Error('tmux display-message printed no client name');
    return name;
  } catch (error) {
    const { stderr, shortMessage, message } = error as Error & {
      stderr?: string;
      shortMessage?: string;
    };
    const reason = (stderr?.trim() || shortMessage || message).split('\n')[0];
    throw new Error(`cannot name this terminal's tmux client ($TMUX is set): ${reason}`, {
      cause: error,
    });
  }
}

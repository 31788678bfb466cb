/** A hub's tmux server (its `-L` socket) seen from outside the hub. */
import { execa } from 'execa';

/** The visible text of a session's pane, read straight from tmux. */
export async function screenOf(socket: string, tmuxSession: string): Promise<string> {
  const result = await execa(
    'tmux',
    ['-L', socket, 'capture-pane', '-p', '-J', '-t', `=${tmuxSession}:`],
    { reject: false },
  );
  return result.stdout;
}

/** Waits until the pane shows text matching `pattern`. */
export async function waitForScreen(
  socket: string,
  tmuxSession: string,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = await screenOf(socket, tmuxSession);
    if (pattern.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`screen never matched ${pattern}:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A tmux format (`#{pane_pid}`...) of a session's pane. */
export async function paneFormat(
  socket: string,
  tmuxSession: string,
  format: string,
): Promise<string> {
  const { stdout } = await execa('tmux', [
    '-L',
    socket,
    'display-message',
    '-p',
    '-t',
    `=${tmuxSession}:`,
    format,
  ]);
  return stdout.trim();
}

/** The pid of the process running in a session's pane (claude). */
export async function panePid(socket: string, tmuxSession: string): Promise<number> {
  return Number(await paneFormat(socket, tmuxSession, '#{pane_pid}'));
}

export async function killTmuxServer(socket: string): Promise<void> {
  await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
}

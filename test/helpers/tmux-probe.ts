import { execa } from 'execa';
import { waitForScreen } from '../../harness/tmux-server.js';

/** Answers a terminal dialog as a person would: waits for it, pauses (it drops early keys), presses. */
export async function answerDialog(
  socket: string,
  tmuxSession: string,
  dialog: RegExp,
  key: string,
): Promise<void> {
  await waitForScreen(socket, tmuxSession, dialog);
  await new Promise((resolve) => setTimeout(resolve, 700));
  await execa('tmux', ['-L', socket, 'send-keys', '-t', `=${tmuxSession}:`, key]);
}

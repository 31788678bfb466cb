/**
 * claude without the hub, for the floors the hub's rows are compared with: the same command, the
 * same hooks (posting to a bare listener that answers `{}`), in tmux or headless, driven the way
 * a person or a script would drive it by hand.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { claudeBin } from '../harness/claude-config.js';
import { waitForScreen } from '../harness/tmux-server.js';
import { headlessArgs } from '../src/runtime/claude-command.js';
import { fieldOf, parseStreamLine } from '../src/runtime/headless-runtime.js';
import { hookSettings } from '../src/sessions/hook-settings.js';
import type { BenchWorld } from './claude-world.js';

const forwarder = fileURLToPath(new URL('../hooks/forward.sh', import.meta.url));

/** A listener for claude's hooks that answers `{}`, and the settings file that points at it. */
export interface BareHooks {
  readonly settingsPath: string;
  /** Resolves when the next hook event of that name arrives. */
  next(eventName: string): Promise<void>;
  close(): void;
}

export async function bareHooks(): Promise<BareHooks> {
  const waiting = new Map<string, (() => void)[]>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.end('{}');
      const name = /"hook_event_name"\s*:\s*"(\w+)"/.exec(body)?.[1];
      if (name) waiting.get(name)?.shift()?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  const settingsPath = path.join(mkdtempSync(path.join(tmpdir(), 'cch-bare-')), 'settings.json');
  const { hooks } = hookSettings({
    hookUrl: url,
    forwarderPath: forwarder,
    httpTimeoutSeconds: 10,
    permissionTimeoutSeconds: 330,
  });
  writeFileSync(settingsPath, JSON.stringify({ hooks }));
  return {
    settingsPath,
    next: (eventName) =>
      new Promise<void>((resolve) => {
        const list = waiting.get(eventName) ?? [];
        list.push(resolve);
        waiting.set(eventName, list);
      }),
    close: () => server.close(),
  };
}

/** claude in a tmux session of its own on `socket`, started with `execa('tmux', ...)`. */
export async function bareTmuxClaude(
  world: BenchWorld,
  socket: string,
  hooks: BareHooks,
  name: string,
): Promise<{ type(text: string): Promise<void>; kill(): Promise<void> }> {
  const env = Object.entries(world.env).flatMap(([k, v]) =>
    v === undefined || k === 'TMUX' ? [] : ['-e', `${k}=${v}`],
  );
  await execa('tmux', [
    ...['-L', socket, 'new-session', '-d', '-s', name, '-x', '200', '-y', '50'],
    ...['-c', world.makeCwd(), ...env, '--'],
    ...[claudeBin, '--session-id', randomUUID(), '--settings', hooks.settingsPath],
  ]);
  return {
    /** Types the text, then Enter, as a person would (send-keys, not a paste). */
    async type(text) {
      await execa('tmux', ['-L', socket, 'send-keys', '-t', `=${name}:`, '-l', text]);
      await execa('tmux', ['-L', socket, 'send-keys', '-t', `=${name}:`, 'Enter']);
    },
    async kill() {
      await execa('tmux', ['-L', socket, 'kill-session', '-t', `=${name}`], { reject: false });
    },
  };
}

/** Waits until claude in that tmux session shows its prompt. */
export const tmuxPromptShown = (socket: string, name: string) =>
  waitForScreen(socket, name, /❯/).catch(() => undefined);

/** A headless claude started by hand: a user line in, its result line out. */
export function bareHeadlessClaude(world: BenchWorld, hooks: BareHooks) {
  const child = spawn(
    claudeBin,
    ['--session-id', randomUUID(), '--settings', hooks.settingsPath, ...headlessArgs],
    { cwd: world.makeCwd(), env: world.env, stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const results: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (fieldOf(parseStreamLine(line).message, 'type') === 'result') results.shift()?.();
  });
  return {
    /** Writes one user line; resolves with its result line. */
    turn(text: string): Promise<void> {
      const done = new Promise<void>((resolve) => results.push(resolve));
      child.stdin.write(
        `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`,
      );
      return done;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

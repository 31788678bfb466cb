import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import xterm from '@xterm/headless';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killTmuxServer, waitForScreen } from '../../harness/tmux-server.js';
import { sessionEnvironment } from '../../src/runtime/session-env.js';
import { TmuxDriver } from '../../src/runtime/tmux-driver.js';
import { externalPane } from '../../src/runtime/tmux-pane.js';
import type { TerminalChunk } from '../../src/terminal/terminal-viewer.js';
import { Terminals } from '../../src/terminal/terminals.js';

/** Feeds chunks to a headless xterm.js, as a browser does, and reads its screen. */
class Screen {
  readonly #term = new xterm.Terminal({ cols: 80, rows: 24, allowProposedApi: true });

  async write(chunk: TerminalChunk): Promise<void> {
    if (chunk.kind === 'SNAPSHOT') {
      this.#term.reset();
      this.#term.resize(chunk.cols, chunk.rows);
    }
    await new Promise<void>((resolve) => this.#term.write(chunk.data, resolve));
  }

  text(): string {
    const buffer = this.#term.buffer.active;
    return Array.from(
      { length: this.#term.rows },
      (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '',
    )
      .join('\n')
      .replace(/\s+$/, '');
  }
}

const tmux = (socket: string, ...args: string[]) =>
  execa('tmux', ['-L', socket, ...args]).then((result) => result.stdout);

/** What tmux shows, as the Screen reads it. */
async function paneText(socket: string, target: string): Promise<string> {
  const captured = await tmux(socket, 'capture-pane', '-p', '-t', target);
  return captured
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\s+$/, '');
}

describe('a terminal watched through tmux control mode', () => {
  const socket = `cch-watch-${process.pid}`;
  let dir: string;
  let driver: TmuxDriver;
  const terminals = new Terminals({ scrollback: 50, viewerBuffer: 2000, pauseAfterSeconds: 10 });

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cch-watch-'));
    const config = path.join(dir, 'tmux.conf');
    writeFileSync(config, 'set -g remain-on-exit on\n');
    driver = new TmuxDriver(socket, config, sessionEnvironment(process.env, []));
  });
  afterAll(async () => {
    await terminals.close();
    await killTmuxServer(socket);
    rmSync(dir, { recursive: true, force: true });
  });

  const shell = (name: string) =>
    driver.newSession({
      name,
      cwd: dir,
      env: { PS1: '$ ' },
      argv: ['bash', '--norc', '--noprofile'],
    });

  it('gives a reader that fell behind a fresh snapshot instead of the backlog', async () => {
    await shell('behind');
    const pane = driver.pane('behind');
    const view = terminals.view('behind', pane);
    const screen = new Screen();
    const first = (await view.next()).value as TerminalChunk;
    expect(first).toMatchObject({ kind: 'SNAPSHOT', reason: 'FIRST', cols: 200, rows: 50 });
    await screen.write(first);

    // The reader reads nothing while the pane prints far more than its 2,000 characters.
    await pane.input('seq 1 3000; echo done\r', false);
    await waitForScreen(socket, 'behind', /^done$/m);
    const next = (await view.next()).value as TerminalChunk;
    expect(next).toMatchObject({ kind: 'SNAPSHOT', reason: 'BEHIND' });
    await screen.write(next);
    // What it holds now is the snapshot and at most the bound of output after it.
    expect(next.data.length).toBeLessThan(20_000);
    while (screen.text() !== (await paneText(socket, '=behind:'))) {
      await screen.write((await view.next()).value as TerminalChunk);
    }
    expect(screen.text()).toMatch(/^2999\n3000\ndone\n\$$/m);
    await view.return?.();
  });

  it("follows claude's pane when it is replaced in place", async () => {
    await shell('replaced');
    const view = terminals.view('replaced', driver.pane('replaced'));
    const screen = new Screen();
    await screen.write((await view.next()).value as TerminalChunk);
    await driver.replace({
      name: 'replaced',
      cwd: dir,
      env: {},
      argv: ['bash', '--norc', '--noprofile', '-c', 'echo the new pane; exec sleep 30'],
    });
    const chunks: TerminalChunk[] = [];
    while (!screen.text().includes('the new pane')) {
      const chunk = (await view.next()).value as TerminalChunk;
      chunks.push(chunk);
      await screen.write(chunk);
    }
    expect(chunks.some((chunk) => chunk.kind === 'SNAPSHOT')).toBe(true);
    expect(screen.text()).toBe(await paneText(socket, '=replaced:'));
    await view.return?.();
  });

  it("watches a pane of a person's own server without moving their window", async () => {
    const own = `${socket}-own`;
    try {
      await execa('tmux', ['-L', own, '-f', '/dev/null', 'new-session', '-d', '-s', 'work']);
      const pane = await tmux(own, 'new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'work');
      const socketPath = await tmux(own, 'display-message', '-p', '#{socket_path}');
      const before = await tmux(own, 'display-message', '-p', '-t', 'work', '#{window_index}');

      const view = terminals.view('external', externalPane({ socket: socketPath, pane }));
      const screen = new Screen();
      await screen.write((await view.next()).value as TerminalChunk);
      await tmux(own, 'send-keys', '-t', pane, 'echo in the watched pane', 'Enter');
      await tmux(own, 'send-keys', '-t', 'work:0', 'echo in the other window', 'Enter');
      while (!/^in the watched pane$/m.test(screen.text())) {
        await screen.write((await view.next()).value as TerminalChunk);
      }
      expect(screen.text()).not.toContain('in the other window');
      expect(await tmux(own, 'display-message', '-p', '-t', 'work', '#{window_index}')).toBe(
        before,
      );
      await view.return?.();
    } finally {
      await killTmuxServer(own);
    }
  });

  it('fails a view of a pane that is gone', async () => {
    const view = terminals.view(
      'gone',
      externalPane({ socket: path.join(dir, 'no-server'), pane: '%99' }),
    );
    await expect(view.next()).rejects.toThrow(/no pane %99/);
  });
});

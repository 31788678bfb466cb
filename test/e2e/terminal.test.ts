import { existsSync } from 'node:fs';
import path from 'node:path';
import xterm from '@xterm/headless';
import { execa, type ResultPromise } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { paneFormat } from '../../harness/tmux-server.js';
import { inputBoxText } from '../../src/runtime/screen.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import type { LiveQueue } from '../helpers/live-queue.js';
import { leftovers, tempDir } from '../helpers/leftovers.js';

interface Chunk {
  kind: 'SNAPSHOT' | 'OUTPUT';
  data: string;
  cols: number;
  rows: number;
  reason: string | null;
}

const terminalSubscription = `subscription($id: ID!) { sessionTerminal(id: $id) { kind data cols rows reason } }`;

/**
 * A browser's terminal, headless: xterm.js fed the chunks of a sessionTerminal subscription as
 * a dashboard feeds them, so what it shows can be compared with what tmux shows.
 */
class Viewer {
  readonly chunks: Chunk[] = [];
  readonly #queue: LiveQueue<{ sessionTerminal: Chunk }>;
  readonly #term = new xterm.Terminal({ cols: 80, rows: 24, allowProposedApi: true });

  constructor(queue: LiveQueue<{ sessionTerminal: Chunk }>) {
    this.#queue = queue;
  }

  /** Takes the next chunk and writes it to the terminal. */
  async next(timeoutMs = 10_000): Promise<Chunk> {
    const chunk = (await this.#queue.next(timeoutMs)).sessionTerminal;
    this.chunks.push(chunk);
    if (chunk.kind === 'SNAPSHOT') {
      this.#term.reset();
      this.#term.resize(chunk.cols, chunk.rows);
    }
    await new Promise<void>((resolve) => this.#term.write(chunk.data, resolve));
    return chunk;
  }

  /** Takes what has arrived without waiting. */
  async drain(): Promise<void> {
    while (this.#queue.received.length > this.chunks.length) await this.next();
  }

  /** The screen as the terminal shows it: its rows, trailing blanks trimmed. */
  screen(): string {
    const buffer = this.#term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.#term.rows; y++) {
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    }
    return trimmed(lines);
  }

  /** The cursor, as [column, row] of the screen. */
  cursor(): [number, number] {
    const buffer = this.#term.buffer.active;
    return [buffer.cursorX, buffer.cursorY];
  }

  /** Reads chunks until the screen is as `done` wants it; returns that screen. */
  async until(done: (screen: string) => boolean, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.drain();
      if (done(this.screen())) return this.screen();
      if (Date.now() > deadline) throw new Error(`the terminal shows:\n${this.screen()}`);
      await this.next(Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
  }

  /**
   * Waits for claude's empty prompt box, then a moment more, as a person reads the screen
   * before typing: the TUI drops keys that come the instant its box appears.
   */
  async ready(): Promise<void> {
    await this.next();
    await this.until((screen) => inputBoxText(screen) === '');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  /** Reads chunks until the terminal shows what tmux shows, and returns that screen. */
  async showsPane(socket: string, tmuxSession: string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.drain();
      const pane = await paneScreen(socket, tmuxSession);
      if (this.screen() === pane) return pane;
      if (Date.now() > deadline) expect(this.screen()).toBe(pane);
      await this.next(Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
  }

  dispose(): void {
    this.#queue.dispose();
    this.#term.dispose();
  }
}

/** Lines as text to compare: trailing blanks of each line, and blank lines at the end, left out. */
function trimmed(lines: readonly string[]): string {
  return lines
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

/** What tmux shows in the pane, row by row. */
async function paneScreen(socket: string, tmuxSession: string): Promise<string> {
  const { stdout } = await execa('tmux', [
    '-L',
    socket,
    'capture-pane',
    '-p',
    '-t',
    `=${tmuxSession}:`,
  ]);
  return trimmed(stdout.split('\n'));
}

/** tmux's own view of the pane: size and cursor. */
async function paneInfo(socket: string, tmuxSession: string) {
  const stdout = await paneFormat(
    socket,
    tmuxSession,
    '#{pane_width} #{pane_height} #{cursor_x} #{cursor_y}',
  );
  const [cols, rows, x, y] = stdout.split(' ').map(Number);
  return { cols, rows, cursor: [x, y] };
}

async function clientsOf(socket: string, tmuxSession: string): Promise<string[]> {
  const { stdout } = await execa(
    'tmux',
    ['-L', socket, 'list-clients', '-t', `=${tmuxSession}:`, '-F', '#{client_control_mode}'],
    { reject: false },
  );
  return stdout.split('\n').filter(Boolean);
}

function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000) {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`not yet: ${JSON.stringify(value).slice(0, 500)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

describe("a session's terminal through the API", () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let socket: string;
  let outside: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--typing-grace', '3'],
    });
    socket = hub.config.tmuxSocket;
    outside = tempDir('cch-terminal-');
  }, 60_000);

  async function newSession(permissionMode = 'DEFAULT') {
    const { createSession } = await hub.data(
      `mutation($cwd: String!, $mode: PermissionMode) { createSession(input: { cwd: $cwd, permissionMode: $mode }) { id tmuxSession status } }`,
      { cwd: world.makeCwd(), mode: permissionMode },
    );
    expect(createSession.status).toBe('IDLE');
    return createSession as { id: string; tmuxSession: string };
  }

  function watch(id: string): Viewer {
    const viewer = new Viewer(hub.subscribe(terminalSubscription, { id }));
    leftovers.add(() => viewer.dispose());
    return viewer;
  }

  const eventsOf = (id: string) =>
    hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { eventName payload } }`,
      { id },
    );

  const input = (sessionId: string, data: string, paste = false) =>
    hub.data(
      `mutation($id: ID!, $data: String!, $paste: Boolean) { sendTerminalInput(sessionId: $id, data: $data, paste: $paste) }`,
      { id: sessionId, data, paste },
    );

  it("starts with a snapshot of claude's screen, with its prompt box, colours and cursor", async () => {
    const session = await newSession();
    const viewer = watch(session.id);
    const first = await viewer.next();
    expect(first).toMatchObject({ kind: 'SNAPSHOT', reason: 'FIRST', cols: 200, rows: 50 });
    // claude draws in colour: the snapshot carries tmux's SGR sequences.
    expect(first.data).toMatch(/\x1b\[[0-9;]*m/);
    await viewer.until((screen) => inputBoxText(screen) === '');
    expect(inputBoxText(await viewer.showsPane(socket, session.tmuxSession))).toBe('');
    expect(viewer.cursor()).toEqual((await paneInfo(socket, session.tmuxSession)).cursor);
  });

  it('types what a browser sends, byte for byte, and streams the turn it starts', async () => {
    const session = await newSession();
    const events = eventsOf(session.id);
    const viewer = watch(session.id);
    await viewer.ready();
    // Keys one at a time as xterm.js sends them, a character outside ASCII, and a word
    // deleted with Ctrl-W.
    for (const key of 'héllo wrong') await input(session.id, key);
    await input(session.id, '\x17');
    await input(session.id, 'from the browser');
    // A paste of a line break stays in the box: claude gets it as a bracketed paste.
    await input(session.id, '\nand a pasted line', true);
    const typed = 'héllo from the browser\nand a pasted line';
    await viewer.until((screen) => inputBoxText(screen) === typed);
    await viewer.showsPane(socket, session.tmuxSession);
    await input(session.id, '\r');
    const turn = await events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000);
    const prompt = turn.find((e) => e.sessionEvents.eventName === 'UserPromptSubmit');
    expect(prompt?.sessionEvents.payload.prompt).toBe(typed);
    // Everything claude drew for the turn reached the browser's terminal in order.
    await viewer.until((screen) => screen.includes('echo: héllo from the browser'));
    await viewer.showsPane(socket, session.tmuxSession);
    expect(viewer.chunks.slice(1).every((chunk) => chunk.kind === 'OUTPUT')).toBe(true);
  });

  it('answers a permission dialog with keys', async () => {
    const session = await newSession();
    const events = eventsOf(session.id);
    const viewer = watch(session.id);
    await viewer.ready();
    const target = path.join(outside, 'answered-in-browser.txt');
    await input(session.id, `run: touch ${target} && echo made`, true);
    await viewer.until((screen) => inputBoxText(screen) === `run: touch ${target} && echo made`);
    await input(session.id, '\r');
    await events.until((e) => e.sessionEvents.eventName === 'PermissionRequest', 30_000);
    await viewer.until((screen) => /Do you want to proceed\?/.test(screen));
    await viewer.showsPane(socket, session.tmuxSession);
    // claude drops keys pressed in the instant its dialog appears; a person reads it first.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await input(session.id, '1');
    const turn = await events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000);
    expect(turn.map((e) => e.sessionEvents.eventName)).toContain('PostToolUse');
    expect(existsSync(target)).toBe(true);
  });

  it('follows the browser size while no person is attached, and puts the size back after', async () => {
    const session = await newSession();
    const viewer = watch(session.id);
    await viewer.next();
    const resize = (cols: number, rows: number) =>
      hub.data(
        `mutation($id: ID!, $cols: Int!, $rows: Int!) { resizeTerminal(sessionId: $id, cols: $cols, rows: $rows) }`,
        { id: session.id, cols, rows },
      );
    expect((await resize(90, 30)).resizeTerminal).toBe(true);
    const resized = await viewer.next();
    expect(resized).toMatchObject({ kind: 'SNAPSHOT', reason: 'RESIZED', cols: 90, rows: 30 });
    expect(await paneInfo(socket, session.tmuxSession)).toMatchObject({ cols: 90, rows: 30 });
    // claude redraws for the new width; the browser's terminal follows it.
    await viewer.showsPane(socket, session.tmuxSession);
    // Sessions started meanwhile keep the hub's own size.
    const next = await newSession();
    expect(await paneInfo(socket, next.tmuxSession)).toMatchObject({ cols: 200, rows: 50 });

    // A person's terminal attached in tmux decides the size.
    const person: ResultPromise = execa(
      'script',
      [
        '-q',
        '-c',
        `stty cols 120 rows 40; exec tmux -L ${socket} attach -t ${session.tmuxSession}`,
        '/dev/null',
      ],
      { stdin: 'pipe', stdout: 'ignore', stderr: 'ignore', reject: false },
    );
    leftovers.add(async () => {
      person.kill();
      await person;
    });
    await until(
      () => clientsOf(socket, session.tmuxSession),
      (clients) => clients.includes('0'),
    );
    expect((await resize(60, 20)).resizeTerminal).toBe(false);
    await until(
      () => paneInfo(socket, session.tmuxSession),
      // tmux's status line takes one of the person's rows.
      (info) => info.cols === 120 && info.rows === 39,
    );
    person.kill();
    await person;

    // The last viewer leaving puts back the size the session had.
    viewer.dispose();
    await until(
      () => clientsOf(socket, session.tmuxSession),
      (clients) => clients.length === 0,
    );
    expect(await paneInfo(socket, session.tmuxSession)).toMatchObject({ cols: 200, rows: 50 });
  });

  it('serves every viewer from one tmux client, which leaves with the last', async () => {
    const session = await newSession();
    const first = watch(session.id);
    const second = watch(session.id);
    await first.ready();
    await second.next();
    expect(await clientsOf(socket, session.tmuxSession)).toEqual(['1']);
    // The hub's own control client is no person's terminal: focusSession finds none.
    const focus = await hub.gql(`mutation($id: ID!) { focusSession(id: $id) { id } }`, {
      id: session.id,
    });
    expect(focus.errors?.[0]?.extensions?.code).toBe('NO_TMUX_CLIENT');
    await input(session.id, 'seen by both');
    for (const viewer of [first, second]) {
      await viewer.until((screen) => inputBoxText(screen) === 'seen by both');
      await viewer.showsPane(socket, session.tmuxSession);
    }
    first.dispose();
    second.dispose();
    await until(
      () => clientsOf(socket, session.tmuxSession),
      (clients) => clients.length === 0,
    );
  });

  it("holds queued messages while a person types in the browser, as at tmux's own terminal", async () => {
    const session = await newSession();
    const viewer = watch(session.id);
    await viewer.ready();
    await input(session.id, 'x');
    await input(session.id, '\x7f');
    const { enqueueMessage } = await hub.data(
      `mutation($id: ID!) { enqueueMessage(sessionId: $id, text: "after the person") { id status } }`,
      { id: session.id },
    );
    expect(enqueueMessage.status).toBe('QUEUED');
    const message = () =>
      hub
        .data(`query($id: ID!) { session(id: $id) { messages(last: 1) { status heldBy } } }`, {
          id: session.id,
        })
        .then((data) => data.session.messages[0]);
    const held = await until(message, (m) => m.heldBy !== null || m.status !== 'QUEUED');
    expect(held.heldBy).toMatch(/^a person typed in the terminal/);
    expect((await until(message, (m) => m.status === 'DELIVERED')).heldBy).toBeNull();
  });

  it('ends the stream when the session ends', async () => {
    const session = await newSession();
    const queue = hub.subscribe(terminalSubscription, { id: session.id });
    leftovers.add(() => queue.dispose());
    await queue.next();
    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { status } }`, { id: session.id });
    await queue.waitForComplete(15_000);
    const again = hub.subscribe(terminalSubscription, { id: session.id });
    leftovers.add(() => again.dispose());
    await expect(again.next()).rejects.toThrow(/SESSION_NOT_RUNNING/);
  });

  it('refuses what it cannot do with clear errors', async () => {
    const session = await newSession();
    const codeOf = async (query: string, variables: Record<string, unknown>) =>
      (await hub.gql(query, variables)).errors?.[0]?.extensions?.code;
    const resize = `mutation($id: ID!, $cols: Int!, $rows: Int!) { resizeTerminal(sessionId: $id, cols: $cols, rows: $rows) }`;
    expect(await codeOf(resize, { id: session.id, cols: 80, rows: 24 })).toBe(
      'TERMINAL_NOT_WATCHED',
    );
    expect(await codeOf(resize, { id: session.id, cols: 5, rows: 24 })).toBe('BAD_USER_INPUT');
    const send = `mutation($id: ID!, $data: String!) { sendTerminalInput(sessionId: $id, data: $data) }`;
    expect(await codeOf(send, { id: session.id, data: '' })).toBe('BAD_USER_INPUT');
    expect(await codeOf(send, { id: 'no-such-session', data: 'x' })).toBe('SESSION_NOT_FOUND');

    const { createSession: headless } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, runtime: HEADLESS }) { id } }`,
      { cwd: world.makeCwd() },
    );
    const refused = hub.subscribe(terminalSubscription, { id: headless.id });
    leftovers.add(() => refused.dispose());
    await expect(refused.next()).rejects.toThrow(/NO_TERMINAL/);
    expect(await codeOf(send, { id: headless.id, data: 'x' })).toBe('NO_TERMINAL');
  });
});

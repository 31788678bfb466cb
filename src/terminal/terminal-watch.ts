import { execa, type ResultPromise } from 'execa';
import { ErrorCode, HubError } from '../errors.js';
import { tmuxServer, type Pane } from '../runtime/tmux-pane.js';
import { timedSpawn } from '../spawn-time.js';
import { ControlModeReader, type ControlMessage } from './control-mode.js';
import {
  parsePaneView,
  snapshotCommand,
  snapshotData,
  type PaneView,
} from './terminal-snapshot.js';
import {
  SnapshotReason,
  TerminalChunkKind,
  TerminalViewer,
  type TerminalChunk,
} from './terminal-viewer.js';

export interface TerminalWatchOptions {
  /** Lines of history a snapshot carries above the screen. */
  readonly scrollback: number;
  /** Bytes of output one viewer may fall behind by before it gets a fresh snapshot instead. */
  readonly viewerBuffer: number;
  /** Seconds tmux may hold output for the hub before it pauses the pane for it (then: a snapshot). */
  readonly pauseAfterSeconds: number;
}

type Reply = { readonly lines: readonly Buffer[]; readonly error: boolean };
type ReplyHandler = (reply: Reply) => void;

/**
 * Sizes the window of `target` as a person's terminal would, then gives it back to tmux's
 * window-size rule (resize-window fixes it otherwise): the next client to attach sizes it. The
 * control client's own size is never set, since tmux gives that size to every new session.
 */
function resizeCommand(target: string, cols: number, rows: number): string {
  return `resize-window -t ${target} -x ${cols} -y ${rows} ; set-option -w -u -t ${target} window-size`;
}

/**
 * One session's terminal, watched through a tmux control-mode client attached to the session
 * that holds claude's pane: tmux sends every byte the pane's program writes as it writes it
 * (no polling of the screen), and the client's own commands read snapshots at exact points in
 * that stream. One client serves every viewer of the session. It is attached with ignore-size
 * and never given a size: the window changes size only when resize asks, and then only while no
 * person's client is attached.
 */
export class TerminalWatch {
  readonly #pane: Pane;
  readonly #options: TerminalWatchOptions;
  readonly #closed: () => void;
  readonly #viewers = new Set<TerminalViewer>();
  readonly #replies: ReplyHandler[] = [];
  readonly #reader = new ControlModeReader();
  readonly #decoder = new TextDecoder();
  #client: ResultPromise | null = null;
  /** The pane claude draws in, as the last snapshot found it. */
  #view: PaneView | null = null;
  #snapshotting = false;
  /** The window's size before the first resize, put back when the last viewer leaves. */
  #sizeBefore: { cols: number; rows: number } | null = null;
  /** The session tmux attaches the client to, and whose clients resize looks at. */
  #session = '';
  #ended = false;

  private constructor(pane: Pane, options: TerminalWatchOptions, closed: () => void) {
    this.#pane = pane;
    this.#options = options;
    this.#closed = closed;
  }

  /**
   * Attaches a control client to the session of `pane`; rejects when tmux has no such pane.
   * `closed` is called once the watch ends (its last viewer left, or the session ended).
   */
  static async open(
    pane: Pane,
    options: TerminalWatchOptions,
    closed: () => void,
  ): Promise<TerminalWatch> {
    const watch = new TerminalWatch(pane, options, closed);
    await watch.#attach();
    return watch;
  }

  /** A new viewer: its first chunk is a snapshot, then every change after it. */
  view(): TerminalViewer {
    const viewer = new TerminalViewer(this.#options.viewerBuffer, (left) => this.#left(left));
    if (this.#ended) {
      viewer.end();
      return viewer;
    }
    this.#viewers.add(viewer);
    this.#snapshot();
    return viewer;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The process of its tmux client, which is no person's terminal. */
  get pid(): number | undefined {
    return this.#client?.pid;
  }

  /**
   * Gives the window this size if no person's tmux client is attached to the session (their
   * terminal decides then); resolves with whether it did.
   */
  async resize(cols: number, rows: number): Promise<boolean> {
    if (this.#ended) return false;
    const clients = await this.#command(`list-clients -t ${this.#session} -F '#{client_pid}'`);
    const own = String(this.#client?.pid);
    if (clients.lines.some((line) => line.toString().trim() !== own)) return false;
    this.#sizeBefore ??= this.#view ? { cols: this.#view.cols, rows: this.#view.rows } : null;
    const [reply] = await this.#commands(resizeCommand(this.#pane.target, cols, rows), 2);
    return reply?.error === false;
  }

  /** Detaches from tmux; every viewer ends. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const viewer of [...this.#viewers]) viewer.end();
    for (const handler of this.#replies.splice(0)) handler({ lines: [], error: true });
    this.#closed();
    this.#detach();
  }

  /** Puts back the window's size from before resize, then leaves. */
  #detach(): void {
    const client = this.#client;
    if (!client?.stdin || client.stdin.destroyed) return;
    if (this.#sizeBefore) {
      const { cols, rows } = this.#sizeBefore;
      client.stdin.write(`${resizeCommand(this.#pane.target, cols, rows)}\n`);
    }
    // An empty line detaches a control client.
    client.stdin.end('\n');
    const kill = setTimeout(() => client.kill('SIGKILL'), 2000);
    kill.unref();
    void client.finally(() => clearTimeout(kill));
  }

  async #attach(): Promise<void> {
    const pane = this.#pane;
    // A pane id names a pane on a person's server: attach to its session without changing
    // which window or pane that session shows.
    if (pane.target.startsWith('%')) {
      const found = await tmuxServer(pane.server)(
        ['display-message', '-p', '-t', pane.target, '#{session_id}'],
        { reject: false },
      );
      const session = found.stdout.trim();
      if (found.exitCode !== 0 || !session.startsWith('$')) {
        throw new HubError(ErrorCode.SessionNotRunning, `tmux has no pane ${pane.target} any more`);
      }
      this.#session = session;
    } else {
      this.#session = pane.target.replace(/:$/, '');
    }
    const client = timedSpawn(() =>
      execa(
        'tmux',
        [
          ...pane.server,
          '-C',
          'attach-session',
          '-f',
          `ignore-size,pause-after=${this.#options.pauseAfterSeconds}`,
          '-t',
          this.#session,
        ],
        { buffer: false, stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', reject: false },
      ),
    );
    this.#client = client;
    client.stdout.on('data', (chunk: Buffer) => {
      for (const message of this.#reader.feed(chunk)) this.#handle(message);
    });
    client.stdin.on('error', () => this.close());
    void client.then(() => this.close());
    // The first reply says the client is attached; a session that is gone ends the client.
    const ready = await this.#command('display-message -p ok');
    if (ready.error || this.#ended) {
      this.close();
      throw new HubError(ErrorCode.SessionNotRunning, 'the session has no tmux session any more');
    }
  }

  async #command(line: string): Promise<Reply> {
    const [reply] = await this.#commands(line, 1);
    return reply!;
  }

  /** Sends a line of `count` commands (joined by ` ; `); resolves with their replies. */
  #commands(line: string, count: number): Promise<Reply[]> {
    if (this.#ended || !this.#client?.stdin) {
      return Promise.resolve(Array.from({ length: count }, () => ({ lines: [], error: true })));
    }
    const replies = Array.from(
      { length: count },
      () => new Promise<Reply>((resolve) => this.#replies.push(resolve)),
    );
    this.#client.stdin.write(`${line}\n`);
    return Promise.all(replies);
  }

  #handle(message: ControlMessage): void {
    switch (message.kind) {
      case 'output': {
        // Decoded for the pane watched only, and always, so a character split across two
        // writes comes out whole whoever watches.
        if (!this.#view || message.pane !== this.#view.pane) return;
        const data = this.#decoder.decode(message.data, { stream: true });
        if (data) this.#publish(data, this.#view);
        return;
      }
      case 'reply':
        this.#replies.shift()?.(message);
        return;
      case 'exit':
        this.close();
        return;
      case 'notice':
        this.#notice(message.name, message.args);
    }
  }

  #publish(data: string, view: PaneView): void {
    const chunk: TerminalChunk = {
      kind: TerminalChunkKind.Output,
      data,
      cols: view.cols,
      rows: view.rows,
      reason: null,
    };
    let behind = false;
    for (const viewer of this.#viewers) if (!viewer.push(chunk)) behind = true;
    if (behind) this.#snapshot();
  }

  #notice(name: string, args: string): void {
    if (name === 'pause') {
      // tmux held output for the hub past pause-after: what it dropped, a snapshot replaces.
      this.#command(`refresh-client -A '${args.trim()}:continue'`).catch(() => {});
      this.#resync(SnapshotReason.Behind);
    } else if (name === 'layout-change') {
      this.#resync(SnapshotReason.Resized);
    } else if (
      (name === 'window-pane-changed' || name === 'session-window-changed') &&
      !this.#pane.target.startsWith('%')
    ) {
      this.#resync(SnapshotReason.Pane);
    }
  }

  /** Every viewer starts again from a snapshot. */
  #resync(reason: SnapshotReason): void {
    for (const viewer of this.#viewers) viewer.awaiting ??= reason;
    this.#snapshot();
  }

  /**
   * Reads the pane at one point of the output stream and gives the snapshot to every viewer
   * awaiting one. A viewer that starts awaiting while a read is under way takes that read's
   * answer: the output it drops meanwhile is in it.
   */
  #snapshot(): void {
    if (this.#snapshotting || this.#ended) return;
    this.#snapshotting = true;
    const command = snapshotCommand(this.#pane.target, this.#options.scrollback);
    // Handled as the replies are read, not through a promise: the output that follows them in
    // the same read must reach each viewer after its snapshot, not be dropped before it.
    let view: PaneView | null = null;
    this.#replies.push((reply) => {
      view = reply.error ? null : parsePaneView(reply.lines[0]?.toString() ?? '');
    });
    this.#replies.push((reply) => {
      this.#snapshotting = false;
      if (this.#ended) return;
      if (!view || reply.error) {
        const error = new HubError(ErrorCode.SessionNotRunning, 'the session has no pane to show');
        for (const viewer of [...this.#viewers]) viewer.fail(error);
        return;
      }
      this.#view = view;
      const lines = reply.lines.map((line) => line.toString('utf8'));
      const base = { kind: TerminalChunkKind.Snapshot, data: snapshotData(view, lines) };
      const size = { cols: view.cols, rows: view.rows };
      for (const viewer of this.#viewers) {
        if (viewer.awaiting) viewer.push({ ...base, ...size, reason: viewer.awaiting });
      }
    });
    this.#client?.stdin?.write(`${command}\n`);
  }

  #left(viewer: TerminalViewer): void {
    if (!this.#viewers.delete(viewer)) return;
    if (this.#viewers.size === 0) this.close();
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { byteLength, type Part } from './frames.js';
import type { FrameSink, FramedConnection } from './graphql-ws-framed.js';
import type { FanoutObserver } from './graphql-ws-options.js';
import type { TailFeed } from './live-tails.js';
import { keepAliveMs, sendHighWater } from './local-socket.js';
import type { Logger } from '../log.js';
import { writerScript } from './writer-script.js';

const wsPath = createRequire(import.meta.url).resolve('ws');

/** Bytes sent to the writer and not yet handed to the kernel, past which sends wait. */
const pipeHighWater = 1024 * 1024;

/**
 * Bytes sent to the writer and not yet handed to the kernel past which the writer is not
 * keeping up with the events it follows (which cannot wait): the newest connection's live tails
 * are cut, one connection each `shedEveryMs`, until it catches up.
 */
const tailPipeLimit = 2 * 1024 * 1024;
const shedEveryMs = 100;

type Item =
  | [id: number, at: number[], lengths: readonly number[], bytes: number]
  | [id: number, code: number, reason: string]
  | [kind: 'f', id: number, sub: string, session: string, key: number, start: number, after: number]
  | [kind: 'u', id: number, sub: string]
  | [kind: 'e', session: string, seq: number, receivedAt: number, keys: number[], at: number[]];

interface Remote {
  readonly request: IncomingMessage;
  readonly protocol: string;
  open: boolean;
  behind: boolean;
  caughtUp: (() => void)[];
  /** The subscriptions the writer follows, each with what to call when it drops one. */
  readonly tails: Map<string, () => void>;
  onMessage: (data: string) => void;
  onClose: (code: number, reason: string) => void;
}

export interface WriterOptions {
  readonly log: Logger;
  /** Events a followed subscription may fall behind by before the writer drops it. */
  readonly subscriberBuffer: number;
  /** Bytes one client message may take: the writer's ws closes a larger one with 1009. */
  readonly maxMessageBytes: number;
  /** Told of the writes of followed subscriptions. */
  readonly fanout?: FanoutObserver | undefined;
}

/**
 * The hub's side of the writer process: hands each upgraded socket to it, and sends each turn's
 * frames and closes in one message, so the system calls that write to the clients (a third of
 * fan-out's cost) run on another core; and the live events of the sessions it follows, each
 * result once (TailFeed, see LiveTails). `opened` is called with each connection once its
 * upgrade is done, to be served like one of this process (framedServer).
 */
export class WriterProcess implements TailFeed {
  #child: ChildProcess;
  readonly #remotes = new Map<number, Remote>();
  readonly #opened: (connection: FramedConnection, request: IncomingMessage) => void;
  readonly #options: WriterOptions;
  #nextId = 0;
  readonly #keyIds = new Map<string, number>();
  /** This turn's message: its parts, where each is, and its writes and closes. */
  #parts: Part[] = [];
  #partAt = new Map<Part, number>();
  #items: Item[] = [];
  #itemBytes = 0;
  /** Bytes of messages sent and not yet written to the pipe, and who waits for them. */
  #unsent = 0;
  #caughtUp: (() => void)[] = [];
  /** When the newest connection's live tails were last cut for the writer's lag. */
  #shedAt = 0;
  #closed = false;

  constructor(
    opened: (connection: FramedConnection, request: IncomingMessage) => void,
    options: WriterOptions,
  ) {
    this.#opened = opened;
    this.#options = options;
    this.#child = this.#spawn();
  }

  /**
   * Starts the writer. Should it end, its connections close (1006, as for a lost network: the
   * clients reconnect and resume with `after`), and another takes its place.
   */
  #spawn(): ChildProcess {
    const child = spawn(
      process.execPath,
      [
        '-e',
        writerScript,
        wsPath,
        String(keepAliveMs),
        String(sendHighWater),
        String(this.#options.subscriberBuffer),
        String(this.#options.maxMessageBytes),
      ],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' },
    );
    child.on('message', (message: [string, number, ...unknown[]]) => this.#heard(message));
    child.once('exit', (code, signal) => {
      for (const id of [...this.#remotes.keys()]) this.#heard(['close', id, 1006, '']);
      this.#unsent = 0;
      for (const done of this.#caughtUp.splice(0)) done();
      if (this.#closed) return;
      this.#options.log.error(
        { code, signal },
        'the WebSocket writer process ended; starting another',
      );
      this.#child = this.#spawn();
    });
    return child;
  }

  /** Hands an upgrade the hub accepted (path, origin, subprotocol) to the writer. */
  upgrade(request: IncomingMessage, socket: Socket, head: Buffer, protocol: string | false): void {
    const id = this.#nextId++;
    this.#remotes.set(id, {
      request,
      protocol: protocol || '',
      open: false,
      behind: false,
      caughtUp: [],
      tails: new Map(),
      onMessage: () => undefined,
      onClose: () => undefined,
    });
    const { method, url, headers } = request;
    // Handed over as a socket of no server: Node would otherwise make the HTTP server ask the
    // child about it at close, and a server whose child has exited never closes.
    Object.assign(socket, { server: null });
    this.#child.send(
      { upgrade: [id, method, url, headers, head, protocol] },
      socket,
      {},
      (error) => {
        socket.destroy();
        if (error) this.#heard(['close', id, 1006, '']);
      },
    );
  }

  #heard([kind, id, ...rest]: [string, number, ...unknown[]]): void {
    if (kind === 'observed') {
      const [delivered, waited] = rest as [number[], number[]];
      for (const seconds of delivered) this.#options.fanout?.delivered(seconds);
      for (const seconds of waited) this.#options.fanout?.waited(seconds);
      return;
    }
    const remote = this.#remotes.get(id);
    if (!remote) return;
    if (kind === 'message') return remote.onMessage(rest[0] as string);
    if (kind === 'cut') {
      const cut = remote.tails.get(rest[0] as string);
      remote.tails.delete(rest[0] as string);
      return cut?.();
    }
    if (kind === 'behind') return void (remote.behind = true);
    if (kind === 'drained' || kind === 'close') {
      remote.behind = false;
      for (const done of remote.caughtUp.splice(0)) done();
    }
    if (kind === 'open') {
      remote.open = true;
      this.#opened(this.#connection(id, remote), remote.request);
    } else if (kind === 'close') {
      this.#remotes.delete(id);
      remote.tails.clear();
      const wasOpen = remote.open;
      remote.open = false;
      if (wasOpen) remote.onClose(rest[0] as number, rest[1] as string);
    }
  }

  #connection(id: number, remote: Remote): FramedConnection {
    const sink: FrameSink = {
      get open() {
        return remote.open;
      },
      behind: () => remote.behind || this.#unsent >= pipeHighWater,
      write: (parts, lengths, bytes) =>
        this.#send([id, parts.map((part) => this.#part(part)), lengths, bytes], bytes),
      whenCaughtUp: (done) => {
        if (remote.behind) remote.caughtUp.push(done);
        else this.#caughtUp.push(done);
      },
      tail: {
        follow: (sub, start, session, key, after, cut) => {
          remote.tails.set(sub, cut);
          this.#send(['f', id, sub, session, key, this.#part(start), after], 0);
          return () => {
            if (remote.tails.delete(sub)) this.#send(['u', id, sub], 0);
          };
        },
      },
    };
    return {
      protocol: remote.protocol,
      sink,
      close: (code, reason) => this.#send([id, code, reason], 0),
      onMessage: (handle) => (remote.onMessage = handle),
      onClose: (handle) => (remote.onClose = handle),
    };
  }

  keyId(key: string): number {
    let id = this.#keyIds.get(key);
    if (id === undefined) this.#keyIds.set(key, (id = this.#keyIds.size));
    return id;
  }

  event(
    session: string,
    seq: number,
    receivedAt: number,
    keys: number[],
    parts: readonly Part[],
  ): void {
    const at = parts.map((part) => this.#part(part));
    this.#send(
      ['e', session, seq, receivedAt, keys, at],
      parts.reduce((n, p) => n + byteLength(p), 0),
    );
  }

  /** Where `part` is in this turn's message, added the first time. */
  #part(part: Part): number {
    let at = this.#partAt.get(part);
    if (at === undefined) {
      this.#partAt.set(part, (at = this.#parts.length));
      this.#parts.push(part);
    }
    return at;
  }

  /** Adds to this turn's message, which leaves once the turn's work is done. */
  #send(item: Item, bytes: number): void {
    if (this.#items.length === 0) process.nextTick(this.#flush);
    this.#items.push(item);
    this.#itemBytes += bytes;
  }

  readonly #flush = (): void => {
    const [parts, items, bytes] = [this.#parts, this.#items, this.#itemBytes];
    [this.#parts, this.#items, this.#itemBytes] = [[], [], 0];
    this.#partAt.clear();
    this.#unsent += bytes;
    const sent = () => {
      this.#unsent = Math.max(0, this.#unsent - bytes);
      if (this.#unsent < pipeHighWater) for (const done of this.#caughtUp.splice(0)) done();
    };
    // A writer that has ended has closed these connections: nothing to send.
    if (this.#child.connected) this.#child.send({ parts, items }, undefined, {}, sent);
    else sent();
    if (this.#unsent > tailPipeLimit) this.#shed();
  };

  /**
   * Cuts the live tails of the newest connection that has any: each subscriber is cut, as if
   * behind, and may resume with `after`.
   */
  #shed(): void {
    const now = performance.now();
    if (now - this.#shedAt < shedEveryMs) return;
    this.#shedAt = now;
    const newest = [...this.#remotes].reverse().find(([, remote]) => remote.tails.size > 0);
    if (!newest) return;
    const [id, remote] = newest;
    for (const [sub, cut] of remote.tails) {
      this.#send(['u', id, sub], 0);
      cut();
    }
    remote.tails.clear();
  }

  /** Ends the writer, and every connection with it. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.kill();
    await exited;
  }
}

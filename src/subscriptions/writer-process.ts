import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { byteLength, frameHeaderSize, frames, type Part } from './frames.js';
import type { FrameSink, FramedConnection } from './graphql-ws-framed.js';
import type { FanoutObserver } from './graphql-ws-options.js';
import type { TailFeed } from './live-tails.js';
import { keepAliveMs, sendHighWater } from './local-socket.js';
import type { Logger } from '../log.js';

/**
 * The writer: the process that owns the WebSocket connections' sockets. It completes each
 * upgrade with ws, answers pings, pings every connection and drops those that stop answering,
 * tells the hub each connection's messages and close, and writes the frames the hub sends, in
 * the order it sends them. It also follows the live tails the hub hands over (see LiveTails):
 * for each event of a followed session it writes every follower's message itself, so the hub
 * sends each event's result once, whatever the number of subscribers. Plain CommonJS, so it
 * runs the same from the compiled hub and from the TypeScript sources.
 *
 * From the hub: `{ upgrade: [id, method, url, headers, head, protocol] }` with the socket, and
 * one message per turn of the hub's loop, `{ parts, items }`: each part once (an event's
 * result is shared by every subscriber of its operation), then in order the writes,
 * `[id, at, lengths, bytes]` (a connection's messages, `at` where their parts are), the
 * closes, `[id, closeCode, reason]`, the follows, `['f', id, subscription, session, key,
 * start, after]` (messages of `start` then the result of operation `key` for each event of the
 * session past seq `after`), the unfollows, `['u', id, subscription]`, and the events of
 * followed sessions, `['e', session, seq, receivedAt, keys, at]` (the part of each key's
 * result). A follower whose connection is behind holds its messages, up to the subscriber
 * buffer; past it the writer drops it and tells the hub. To the hub: `[kind, id, ...]`, kind
 * one of open, message, behind, drained, close (every upgrade ends in exactly one), cut
 * (`[cut, id, subscription]`), and every second `['observed', -1, delivered, waited]`: the
 * seconds from receipt to write of the oldest event of each write of followers' messages, and
 * the seconds each connection holding them was behind.
 */
const source = `
const [wsPath, keepAliveMs, highWater, followerLimit] = process.argv.slice(1).map((a, i) => (i === 0 ? a : Number(a)));
const { WebSocketServer } = require(wsPath);
const server = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  handleProtocols: (offered, req) => req.protocol,
});
const connections = new Map();
/** The followers of each session. */
const sessions = new Map();
/**
 * Connections with followers' messages to write once the hub's messages read in this turn are
 * done: under load several come at once, and each connection still gets one write.
 */
const touched = new Set();
let delivered = [];
let waited = [];
const tell = (message) => process.connected && process.send(message);

function upgrade([id, method, url, headers, head, protocol], raw) {
  if (!raw) return tell(['close', id, 1006, '']);
  let opened = false;
  raw.once('close', () => opened || tell(['close', id, 1006, '']));
  const req = { method, url, headers, protocol, socket: raw };
  server.handleUpgrade(req, raw, Buffer.from(head), (ws) => {
    opened = true;
    // held: the followers' messages not written yet, as their followers and bodies (the result
    // after the follower's start), and the receipt of the oldest.
    const connection = {
      id, ws, raw, alive: true, behind: false, since: 0, followers: new Map(),
      held: [], bodies: [], oldest: Infinity,
    };
    connections.set(id, connection);
    ws.on('message', (data) => tell(['message', id, String(data)]));
    ws.on('pong', () => (connection.alive = true));
    raw.on('drain', () => {
      if (!connection.behind) return;
      connection.behind = false;
      if (connection.held.length > 0) waited.push((performance.now() - connection.since) / 1000);
      sendHeld(connection, false);
      tell(['drained', id]);
    });
    ws.once('error', () => ws.terminate());
    ws.once('close', (code, reason) => {
      connections.delete(id);
      for (const follower of connection.followers.values()) drop(follower);
      tell(['close', id, code, String(reason)]);
    });
    tell(['open', id]);
  });
}

${frames.toString()}
const frameHeaderSize = ${frameHeaderSize.toString()};
const byteLength = ${byteLength.toString()};

function checkBehind(connection) {
  if (connection.behind || connection.raw.writableLength < highWater) return;
  connection.behind = true;
  connection.since = performance.now();
  tell(['behind', connection.id]);
}

/** Writes the followers' messages the connection holds: unless it is behind, or forced. */
function sendHeld(connection, force) {
  const { held, bodies, oldest } = connection;
  if (held.length === 0 || (connection.behind && !force)) return;
  [connection.held, connection.bodies, connection.oldest] = [[], [], Infinity];
  const parts = new Array(2 * held.length);
  const lengths = new Array(held.length);
  let bytes = 0;
  for (let i = 0; i < held.length; i++) {
    const follower = held[i];
    follower.held = 0;
    const length = follower.start.length + byteLength(bodies[i]);
    parts[2 * i] = follower.start;
    parts[2 * i + 1] = bodies[i];
    lengths[i] = length;
    bytes += frameHeaderSize(length) + length;
  }
  if (connection.ws.readyState !== 1) return;
  connection.raw.write(frames(parts, lengths, bytes));
  delivered.push(Math.max(0, Date.now() - oldest) / 1000);
  checkBehind(connection);
}

function sendTouched() {
  for (const connection of touched) sendHeld(connection, false);
  touched.clear();
}

function follow([, id, sub, session, key, start, after], parts) {
  const connection = connections.get(id);
  if (!connection) return;
  const follower = { connection, sub, session, key, start: parts[start], last: after, held: 0 };
  connection.followers.set(sub, follower);
  let followers = sessions.get(session);
  if (!followers) sessions.set(session, (followers = new Set()));
  followers.add(follower);
}

/**
 * Stops following. The messages it holds still go (they came before the hub's next message,
 * a complete after the session's last event, say), unless it is cut for holding too many.
 */
function drop(follower, cut = false) {
  const { connection } = follower;
  connection.followers.delete(follower.sub);
  const followers = sessions.get(follower.session);
  followers?.delete(follower);
  if (followers?.size === 0) sessions.delete(follower.session);
  if (!cut) return;
  const { held, bodies } = connection;
  [connection.held, connection.bodies] = [[], []];
  for (let i = 0; i < held.length; i++) {
    if (held[i] === follower) continue;
    connection.held.push(held[i]);
    connection.bodies.push(bodies[i]);
  }
}

function unfollow([, id, sub]) {
  const follower = connections.get(id)?.followers.get(sub);
  if (follower) drop(follower);
}

function event([, session, seq, receivedAt, keys, at], parts) {
  const followers = sessions.get(session);
  if (!followers) return;
  for (const follower of followers) {
    if (seq <= follower.last) continue;
    const k = keys.indexOf(follower.key);
    if (k < 0) continue;
    follower.last = seq;
    const { connection } = follower;
    if (connection.held.length === 0) {
      if (touched.size === 0) setImmediate(sendTouched);
      touched.add(connection);
    }
    if (receivedAt < connection.oldest) connection.oldest = receivedAt;
    connection.held.push(follower);
    connection.bodies.push(parts[at[k]]);
    follower.held += 1;
    if (connection.behind && follower.held > followerLimit) {
      drop(follower, true);
      tell(['cut', connection.id, follower.sub]);
    }
  }
}

function write({ parts, items }) {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part !== 'string') parts[i] = Buffer.from(part.buffer, part.byteOffset, part.length);
  }
  for (const item of items) {
    const [id, at, lengths, bytes] = item;
    if (id === 'e') event(item, parts);
    else if (id === 'f') follow(item, parts);
    else if (id === 'u') unfollow(item);
    else {
      const connection = connections.get(id);
      if (!connection) continue;
      // What the followers hold came before.
      sendHeld(connection, true);
      if (typeof at === 'number') {
        connection.ws.close(at, lengths);
        continue;
      }
      if (connection.ws.readyState !== 1) continue;
      connection.raw.write(frames(parts, lengths, bytes, at));
      checkBehind(connection);
    }
  }
}

process.on('message', (message, handle) =>
  message.upgrade ? upgrade(message.upgrade, handle) : write(message),
);
setInterval(() => {
  for (const connection of connections.values()) {
    if (!connection.alive) connection.ws.terminate();
    else {
      connection.alive = false;
      connection.ws.ping();
    }
  }
}, Number(keepAliveMs));
setInterval(() => {
  if (delivered.length === 0 && waited.length === 0) return;
  tell(['observed', -1, delivered, waited]);
  [delivered, waited] = [[], []];
}, 1000);
process.on('disconnect', () => process.exit(0));
`;

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
        source,
        wsPath,
        String(keepAliveMs),
        String(sendHighWater),
        String(this.#options.subscriberBuffer),
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

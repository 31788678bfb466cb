import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { frames, type Part } from './frames.js';
import type { FrameSink, FramedConnection } from './graphql-ws-framed.js';
import { keepAliveMs, sendHighWater } from './local-socket.js';
import type { Logger } from '../log.js';

/**
 * The writer: the process that owns the WebSocket connections' sockets. It completes each
 * upgrade with ws, answers pings, pings every connection and drops those that stop answering,
 * tells the hub each connection's messages and close, and writes the frames the hub sends, in
 * the order it sends them. Plain CommonJS, so it runs the same from the compiled hub and from
 * the TypeScript sources.
 *
 * From the hub: `{ upgrade: [id, method, url, headers, head, protocol] }` with the socket, and
 * one message per turn of the hub's loop, `{ parts, items }`: each part once (an event's
 * result is shared by every subscriber of its operation), then in order the writes, `[id, at,
 * lengths, bytes]` (a connection's messages, `at` where their parts are), and the closes,
 * `[id, closeCode, reason]`. The writer frames each connection's messages and writes them.
 * To the hub: `[kind, id, ...]`, kind one of open, message, behind, drained, close; every
 * upgrade ends in exactly one close.
 */
const source = `
const [wsPath, keepAliveMs, highWater] = process.argv.slice(1);
const { WebSocketServer } = require(wsPath);
const server = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  handleProtocols: (offered, req) => req.protocol,
});
const connections = new Map();
const tell = (message) => process.connected && process.send(message);

function upgrade([id, method, url, headers, head, protocol], raw) {
  if (!raw) return tell(['close', id, 1006, '']);
  let opened = false;
  raw.once('close', () => opened || tell(['close', id, 1006, '']));
  const req = { method, url, headers, protocol, socket: raw };
  server.handleUpgrade(req, raw, Buffer.from(head), (ws) => {
    opened = true;
    const connection = { ws, raw, alive: true, behind: false };
    connections.set(id, connection);
    ws.on('message', (data) => tell(['message', id, String(data)]));
    ws.on('pong', () => (connection.alive = true));
    raw.on('drain', () => {
      if (!connection.behind) return;
      connection.behind = false;
      tell(['drained', id]);
    });
    ws.once('error', () => ws.terminate());
    ws.once('close', (code, reason) => {
      connections.delete(id);
      tell(['close', id, code, String(reason)]);
    });
    tell(['open', id]);
  });
}

${frames.toString()}

function write({ parts, items }) {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part !== 'string') parts[i] = Buffer.from(part.buffer, part.byteOffset, part.length);
  }
  for (const [id, at, lengths, bytes] of items) {
    const connection = connections.get(id);
    if (!connection) continue;
    if (typeof at === 'number') {
      connection.ws.close(at, lengths);
      continue;
    }
    if (connection.ws.readyState !== 1) continue;
    connection.raw.write(frames(parts, lengths, bytes, at));
    if (!connection.behind && connection.raw.writableLength >= highWater) {
      connection.behind = true;
      tell(['behind', id]);
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
process.on('disconnect', () => process.exit(0));
`;

const wsPath = createRequire(import.meta.url).resolve('ws');

/** Bytes sent to the writer and not yet handed to the kernel, past which sends wait. */
const pipeHighWater = 1024 * 1024;

type Item =
  | [id: number, at: number[], lengths: readonly number[], bytes: number]
  | [id: number, code: number, reason: string];

interface Remote {
  readonly request: IncomingMessage;
  readonly protocol: string;
  open: boolean;
  behind: boolean;
  caughtUp: (() => void)[];
  onMessage: (data: string) => void;
  onClose: (code: number, reason: string) => void;
}

/**
 * The hub's side of the writer process: hands each upgraded socket to it, and sends each turn's
 * frames and closes in one message, so the system calls that write to the clients (a third of
 * fan-out's cost) run on another core. `opened` is called with each connection once its
 * upgrade is done, to be served like one of this process (framedServer).
 */
export class WriterProcess {
  #child: ChildProcess;
  readonly #remotes = new Map<number, Remote>();
  readonly #opened: (connection: FramedConnection, request: IncomingMessage) => void;
  readonly #log: Logger;
  #nextId = 0;
  /** This turn's message: its parts, where each is, and its writes and closes. */
  #parts: Part[] = [];
  #partAt = new Map<Part, number>();
  #items: Item[] = [];
  #itemBytes = 0;
  /** Bytes of messages sent and not yet written to the pipe, and who waits for them. */
  #unsent = 0;
  #caughtUp: (() => void)[] = [];
  #closed = false;

  constructor(
    opened: (connection: FramedConnection, request: IncomingMessage) => void,
    log: Logger,
  ) {
    this.#opened = opened;
    this.#log = log;
    this.#child = this.#spawn();
  }

  /**
   * Starts the writer. Should it end, its connections close (1006, as for a lost network: the
   * clients reconnect and resume with `after`), and another takes its place.
   */
  #spawn(): ChildProcess {
    const child = spawn(
      process.execPath,
      ['-e', source, wsPath, String(keepAliveMs), String(sendHighWater)],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' },
    );
    child.on('message', (message: [string, number, ...unknown[]]) => this.#heard(message));
    child.once('exit', (code, signal) => {
      for (const id of [...this.#remotes.keys()]) this.#heard(['close', id, 1006, '']);
      this.#unsent = 0;
      for (const done of this.#caughtUp.splice(0)) done();
      if (this.#closed) return;
      this.#log.error({ code, signal }, 'the WebSocket writer process ended; starting another');
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
    const remote = this.#remotes.get(id);
    if (!remote) return;
    if (kind === 'message') return remote.onMessage(rest[0] as string);
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
    };
    return {
      protocol: remote.protocol,
      sink,
      close: (code, reason) => this.#send([id, code, reason], 0),
      onMessage: (handle) => (remote.onMessage = handle),
      onClose: (handle) => (remote.onClose = handle),
    };
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
  };

  /** Ends the writer, and every connection with it. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.kill();
    await exited;
  }
}

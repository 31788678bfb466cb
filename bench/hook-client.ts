/**
 * The bench's load: POST /hooks over kept-alive raw TCP connections, each request written as
 * one buffer and each answer read as a status line, headers and a Content-Length body. On a
 * 2-core machine the load shares the cores with the hub it measures; node:http's client cost
 * about 160 µs of CPU per request here, this one a fraction of that, so the cores go to the
 * hub. A request finds an idle connection, else opens one up to `maxConnections`, else is
 * pipelined behind the connection with the fewest waiting. A connection idle for a second is
 * not reused: the hub closes idle connections after 5 s, and a request written as it does
 * would be lost.
 */
import { connect, type Socket } from 'node:net';

interface Waiting {
  readonly resolve: (status: number) => void;
  readonly reject: (error: Error) => void;
}

const headerEnd = Buffer.from('\r\n\r\n');
const maxIdleMs = 1000;

/** One kept-alive connection and the answers it still owes, in order. */
class Connection {
  readonly socket: Socket;
  readonly waiting: Waiting[] = [];
  idleSince = performance.now();
  #buffer: Buffer = Buffer.alloc(0);

  constructor(port: number, host: string, closed: (connection: Connection) => void) {
    this.socket = connect({ port, host, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.#read(chunk));
    const fail = (error: Error) => {
      closed(this);
      for (const waiting of this.waiting.splice(0)) waiting.reject(error);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('the hub closed the connection')));
  }

  #read(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const end = this.#buffer.indexOf(headerEnd);
      if (end < 0) return;
      const head = this.#buffer.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      const size = end + headerEnd.length + length;
      if (this.#buffer.length < size) return;
      this.#buffer = this.#buffer.subarray(size);
      this.waiting.shift()?.resolve(Number(head.slice(9, 12)));
      if (this.waiting.length === 0) this.idleSince = performance.now();
    }
  }
}

export class HookClient {
  readonly #port: number;
  readonly #host: string;
  readonly #maxConnections: number;
  readonly #connections = new Set<Connection>();

  constructor(url: string, maxConnections = 64) {
    const { port, hostname } = new URL(url);
    this.#port = Number(port);
    this.#host = hostname;
    this.#maxConnections = maxConnections;
  }

  /** Resolves with the answer's status. `headers` are more header lines, each ending in CRLF. */
  post(secret: string, body: string, headers = ''): Promise<number> {
    const request = Buffer.from(
      `POST /hooks HTTP/1.1\r\nhost: ${this.#host}\r\nauthorization: Bearer ${secret}\r\n${headers}` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const connection = this.#pick();
    return new Promise((resolve, reject) => {
      connection.waiting.push({ resolve, reject });
      connection.socket.write(request);
    });
  }

  close(): void {
    for (const connection of this.#connections) connection.socket.destroy();
    this.#connections.clear();
  }

  #pick(): Connection {
    let least: Connection | undefined;
    for (const connection of this.#connections) {
      if (connection.waiting.length === 0 && performance.now() - connection.idleSince > maxIdleMs) {
        connection.socket.destroy();
        this.#connections.delete(connection);
        continue;
      }
      if (connection.waiting.length === 0) return connection;
      if (!least || connection.waiting.length < least.waiting.length) least = connection;
    }
    if (least && this.#connections.size >= this.#maxConnections) return least;
    const connection = new Connection(this.#port, this.#host, (closed) =>
      this.#connections.delete(closed),
    );
    this.#connections.add(connection);
    return connection;
  }
}

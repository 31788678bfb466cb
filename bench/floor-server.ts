/**
 * The machine's floor, run as a process of its own like the hub: the least a server must do for
 * what the hub does on the event path, with nothing of the hub's. POST /hooks reads the body and
 * answers `{}`; when the event's session has subscribers, it parses the body and writes each of
 * them the message the hub would (`{"id":..,"type":"next","payload":{"data":{"sessionEvents":
 * {"payload":<the body>}}}}`) with `ws`' own send, a turn's messages to a connection corked into
 * one write (as the hub writes them: without it, 100 subscribers cost 100 writes an event, and
 * the floor falls seconds behind at 2,000 events/s). WebSockets at /graphql speak just enough of
 * graphql-ws for the bench's subscribers: connection_ack, subscribe, complete, pong.
 * Prints `floor listening on <url>` once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

const subscribers = new Map<string, Map<WebSocket, string>>();
/** Each connection's socket; the messages of one turn leave in one write, as the hub's do. */
const sockets = new WeakMap<WebSocket, Duplex>();
const corked = new Set<Duplex>();
function uncorkAll(): void {
  for (const raw of corked) raw.uncork();
  corked.clear();
}
const answer = '{}';

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/hooks') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': answer.length,
    });
    res.end(answer);
    if (subscribers.size === 0) return;
    const body = Buffer.concat(chunks).toString('utf8');
    const watching = subscribers.get((JSON.parse(body) as { session_id: string }).session_id);
    for (const [ws, id] of watching ?? []) {
      const raw = sockets.get(ws)!;
      if (!corked.has(raw)) {
        if (corked.size === 0) setImmediate(uncorkAll);
        corked.add(raw);
        raw.cork();
      }
      ws.send(
        `{"id":${id},"type":"next","payload":{"data":{"sessionEvents":{"payload":${body}}}}}`,
      );
    }
  });
});

function unsubscribe(ws: WebSocket, session: string | undefined): void {
  const watching = subscribers.get(session ?? '');
  watching?.delete(ws);
  if (watching?.size === 0) subscribers.delete(session!);
}

const wsServer = new WebSocketServer({ server, path: '/graphql' });
wsServer.on('connection', (ws, request) => {
  sockets.set(ws, request.socket);
  const mine = new Map<string, string>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      id?: string;
      payload?: { variables?: { id?: string } };
    };
    if (message.type === 'connection_init') ws.send('{"type":"connection_ack"}');
    else if (message.type === 'ping') ws.send('{"type":"pong"}');
    else if (message.type === 'subscribe') {
      const session = String(message.payload?.variables?.id);
      if (!subscribers.has(session)) subscribers.set(session, new Map());
      subscribers.get(session)!.set(ws, JSON.stringify(message.id));
      mine.set(String(message.id), session);
    } else if (message.type === 'complete') {
      unsubscribe(ws, mine.get(String(message.id)));
    }
  });
  ws.on('close', () => {
    for (const session of mine.values()) unsubscribe(ws, session);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`floor listening on http://127.0.0.1:${port}/graphql\n`);
});
process.on('SIGTERM', () => process.exit(0));

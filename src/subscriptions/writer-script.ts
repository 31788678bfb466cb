import { byteLength, frameHeaderSize, frames } from './frames.js';

/**
 * The writer: the process that owns the WebSocket connections' sockets. It completes each
 * upgrade with ws, answers pings, pings every connection and drops those that stop answering,
 * tells the hub each connection's messages (up to `maxPayload` bytes: ws closes the connection
 * on a larger one with 1009) and close, and writes the frames the hub sends, in the order it
 * sends them. It also follows the live tails the hub hands over (see LiveTails):
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
export const writerScript = `
const [wsPath, keepAliveMs, highWater, followerLimit, maxPayload] = process.argv.slice(1).map((a, i) => (i === 0 ? a : Number(a)));
const { WebSocketServer } = require(wsPath);
const server = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  handleProtocols: (offered, req) => req.protocol,
  maxPayload,
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
    // ws closes itself on a bad frame (WS_ERR_*: 1009 past maxPayload), sending its code.
    ws.once('error', (error) => String(error.code).startsWith('WS_ERR_') || ws.terminate());
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

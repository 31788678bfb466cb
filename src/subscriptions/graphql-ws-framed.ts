import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { getOperationAST, Kind } from 'graphql';
import { CloseCode, makeServer } from 'graphql-ws';
import type { WebSocketServer } from 'ws';
import { done, isReadySource, type ReadySource } from '../events/ready-source.js';
import type { Logger } from '../log.js';
import { precompile } from './compiled-selection.js';
import { executeShared } from './shared-results.js';
import {
  messageNestingRefusal,
  type Extra,
  type FanoutObserver,
  type HubServerOptions,
  type Root,
  type Results,
  type WebSocketLimits,
} from './graphql-ws-options.js';
import { FanoutTurns, type FanoutConnection } from './fanout-turns.js';
import { deflatedEnd, deflateFrom, sendsDeflated, storedStart } from './deflated.js';
import { byteLength, frameHeaderSize, type Part } from './frames.js';
import { localSink, type FrameSink } from './local-socket.js';

/**
 * Sends a subscription's results itself, as graphql-ws `next` messages built from the shared
 * result and the subscription's own start of message. To graphql-ws it is a stream that yields
 * nothing and ends when its source does, so graphql-ws still sends `error` and `complete`,
 * after the last result. return() (the client's `complete`, or the connection closing) ends
 * the source at once instead of after its next event.
 *
 * Live items of a ReadySource (a session's events, a topic's values) cost no promise: it wakes the relay
 * (FanoutTurns.wake), which sends what is there until it must wait for a later turn, an async
 * result or a client that is behind. Only the first event, replayed pages, the end and errors
 * come through the source's next().
 */
class Relay implements AsyncIterableIterator<ExecutionResult> {
  readonly #source: AsyncIterator<unknown>;
  /** The source when it can hand over events that are already here without a promise each. */
  readonly #ready: ReadySource<unknown> | null;
  readonly #key: string;
  readonly #outbox: Outbox;
  readonly #args: ExecutionArgs;
  readonly #log: Logger;
  readonly #start: Buffer;
  /** Whether its messages may wait to be written with others (see heldFields). */
  readonly #held: boolean;
  /** Whether its large messages may go compressed (see deflatedFields). */
  readonly #deflatable: boolean;
  /** The server's share of each turn for fan-out. */
  readonly #turns: FanoutTurns;
  /** The event taken from the source and not yet sent, and its message's end once made. */
  #event: unknown = undefined;
  #end: Part | undefined = undefined;
  #ended = false;
  /** Settles the promise from next() when the source ends or fails. */
  #settle: { resolve: (result: typeof done) => void; reject: (error: unknown) => void } | null =
    null;

  constructor(
    source: AsyncIterable<unknown>,
    root: Root,
    outbox: Outbox,
    args: ExecutionArgs,
    turns: FanoutTurns,
    log: Logger,
  ) {
    this.#source = source[Symbol.asyncIterator]();
    this.#ready = isReadySource(this.#source) ? this.#source : null;
    this.#key = root.key;
    this.#outbox = outbox;
    this.#args = args;
    this.#log = log;
    this.#turns = turns;
    this.#start = Buffer.from(`{"id":${JSON.stringify(root.id)},"type":"next","payload":`);
    const field = rootField(args) ?? '';
    this.#held = heldFields.has(field);
    this.#deflatable = deflatedFields.has(field);
    // Compiled now rather than at its first event, which would wait for it.
    precompile(args);
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    return new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
      this.#read();
    });
  }

  /** Waits for the source's next event through its next(). */
  #read(): void {
    this.#source.next().then((step) => {
      if (step.done) return this.#settle!.resolve(done);
      this.#event = step.value;
      this.#pump();
    }, this.#settle!.reject);
  }

  /**
   * Sends the events that are here, until one has to wait or none is left. Woken or resumed, it
   * runs with the connection's other relays, and their messages are written right after them
   * (FanoutTurns), so the fan-out budget counts the writes; otherwise they leave at the end
   * of the turn.
   */
  readonly #pump = (): void => {
    try {
      for (;;) {
        if (this.#ended) return this.#settle!.resolve(done);
        if (this.#event === undefined) {
          const event = this.#ready?.takeReady();
          if (event === undefined) {
            if (!this.#ready?.wakeWhenReady(this.#wake)) this.#read();
            return;
          }
          this.#event = event;
        }
        if (this.#end === undefined) {
          if (this.#turns.wait(this.#outbox, this.#pump)) return;
          // A replayed event is this subscriber's alone: nothing to share, and a WeakMap entry
          // per event costs the garbage collector more than the selection itself.
          const end = executeShared(
            this.#key,
            this.#args,
            this.#event,
            !this.#ready?.replaying,
            this.#log,
          );
          if (typeof end === 'object' && 'then' in end) {
            end.then((made) => {
              this.#end = made;
              this.#pump();
            }, this.#settle!.reject);
            return;
          }
          this.#end = end;
        }
        const receivedAt = this.#ready?.receivedAt?.(this.#event);
        const sent = this.#outbox.send(
          this.#start,
          this.#end,
          receivedAt,
          this.#held,
          this.#deflatable,
        );
        [this.#event, this.#end] = [undefined, undefined];
        if (sent) return void sent.then(this.#pump);
      }
    } catch (error) {
      this.#settle!.reject(error);
    }
  };

  readonly #wake = () => this.#turns.wake(this.#outbox, this.#pump);

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.#ended = true;
    void this.#source.return?.().catch(() => undefined);
    return Promise.resolve(done);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Bytes of messages waiting to be written together, past which they are written at once. */
const batchHighWater = 64 * 1024;
/**
 * Subscriptions of states rather than events, whose messages may wait up to `holdMs` after a
 * connection's last write to go with the next: a dashboard on every session's updates of a busy
 * fleet gets them in a few writes a second rather than one a change. The first after a quiet
 * `holdMs` goes at once, and a message of any other subscription takes the waiting ones along.
 */
const heldFields = new Set(['sessionUpdates']);
const holdMs = 25;
/**
 * The fleet's feeds, whose messages (a batch of session changes, the attention queue's) go to
 * every dashboard, compressed once for all of them where a connection agreed to it. A session's
 * events, which may be megabytes of tool output for a few readers, go as they are: compressing
 * them would cost the loop more than the copies it saves.
 */
const deflatedFields = new Set(['sessionUpdateBatches', 'sessionUpdates', 'attention']);

/** The field a subscription's operation selects at its root. */
function rootField(args: ExecutionArgs): string | undefined {
  const [first] = getOperationAST(args.document, args.operationName)?.selectionSet.selections ?? [];
  return first?.kind === Kind.FIELD ? first.name.value : undefined;
}
/** Connections holding messages until their hold is over, and the one timer for them all. */
const held = new Set<Outbox>();
let heldTimer: NodeJS.Timeout | null = null;

/** The held messages are due: written within the fan-out's budget of the turn (FanoutTurns). */
function writeHeld(): void {
  heldTimer = null;
  const due = [...held];
  held.clear();
  for (const outbox of due) outbox.due();
}
/**
 * Connections with messages waiting for the end of this turn (those of woken or resumed relays
 * are written right after them, by FanoutTurns).
 */
const waiting = new Set<Outbox>();

function flushAll(): void {
  for (const outbox of waiting) outbox.flush();
  waiting.clear();
}

/**
 * The sending side of one connection. The messages sent together (by its relays woken by one
 * batch of events or resumed in one turn, or else in one turn of the event loop) are framed
 * into one buffer and leave in one write: 100 subscribers of one session cost one system call
 * per connection and batch, and no object per message. Each message is two parts (a
 * subscription's start and the result, shared by every subscriber as bytes, or one replayed
 * event's as a string), copied or encoded once, when written. ws frames and writes control
 * frames itself; the hub's text messages take this path. On a connection that agreed to
 * permessage-deflate, a fleet feed's shared result of `deflateFrom` bytes or more goes
 * compressed, made once for every connection (deflated.ts, deflatedFields); the rest go as
 * they are. Sends never wait for a write to complete (graphql-ws' own ws binding awaits every
 * send); they wait only when the client falls behind. Messages of state subscriptions may be
 * held a little to share a later write (heldFields).
 */
class Outbox implements FanoutConnection {
  readonly place: number;
  readonly #sink: FrameSink;
  readonly #turns: FanoutTurns;
  readonly #observer: FanoutObserver | undefined;
  /** The waiting messages, two parts each, and their lengths in bytes. */
  #parts: Part[] = [];
  #lengths: number[] = [];
  /** Whether the connection agreed to permessage-deflate with the hub's window. */
  readonly #deflates: boolean;
  /** Whether each waiting message is compressed. */
  #deflated: boolean[] = [];
  #bytes = 0;
  /** When the oldest live event among the waiting messages was received (ms since the epoch). */
  #oldest = Infinity;
  /** Whether a waiting message may not be held (see heldFields), or the hold is over. */
  #urgent = false;
  /** When the last write was (performance.now()). */
  #wroteAt = -Infinity;

  constructor(sink: FrameSink, turns: FanoutTurns, deflates: boolean, observer?: FanoutObserver) {
    this.place = turns.place();
    this.#sink = sink;
    this.#deflates = deflates;
    this.#turns = turns;
    this.#observer = observer;
  }

  /**
   * Queues the message `head` + `body` (a live event's, received at `receivedAt`), compressed
   * if `mayDeflate` and large; resolves when the client has caught up, if behind.
   */
  send(
    head: Part,
    body: Part = '',
    receivedAt?: number,
    mayWait = false,
    mayDeflate = false,
  ): Promise<void> | void {
    if (!this.#sink.open) return;
    if (receivedAt !== undefined && receivedAt < this.#oldest) this.#oldest = receivedAt;
    if (!mayWait) this.#urgent = true;
    if (this.#parts.length === 0) {
      if (waiting.size === 0) setImmediate(flushAll);
      waiting.add(this);
    }
    const stored =
      mayDeflate &&
      this.#deflates &&
      typeof head !== 'string' &&
      typeof body !== 'string' &&
      body.length >= deflateFrom
        ? storedStart(head)
        : null;
    if (stored) [head, body] = [stored, deflatedEnd(body as Buffer)];
    const length = byteLength(head) + byteLength(body);
    this.#parts.push(head, body);
    this.#lengths.push(length);
    this.#deflated.push(stored !== null);
    this.#bytes += frameHeaderSize(length) + length;
    if (this.#bytes > batchHighWater) this.flush(true);
    if (!this.#sink.behind(this.#bytes)) return;
    this.flush();
    const since = performance.now();
    return new Promise((resolve) =>
      this.#sink.whenCaughtUp(() => {
        this.#observer?.waited((performance.now() - since) / 1000);
        resolve();
      }),
    );
  }

  /** Its held messages' hold is over: they are written in a turn's fan-out. */
  due(): void {
    if (this.#parts.length === 0) return;
    this.#urgent = true;
    this.#turns.wake(this, noRun);
  }

  /**
   * Writes the waiting messages, unless the connection is closing (nothing follows a close); or,
   * unless `now`, holds them while they all may wait and the last write was under `holdMs` ago.
   */
  flush(now = false): void {
    const [parts, lengths, deflated, bytes] = [
      this.#parts,
      this.#lengths,
      this.#deflated,
      this.#bytes,
    ];
    if (parts.length === 0) return;
    const since = performance.now() - this.#wroteAt;
    if (!now && !this.#urgent && since < holdMs) {
      held.add(this);
      heldTimer ??= setTimeout(writeHeld, holdMs - since);
      return;
    }
    held.delete(this);
    [this.#parts, this.#lengths, this.#deflated, this.#bytes] = [[], [], [], 0];
    this.#urgent = false;
    this.#wroteAt = performance.now();
    if (!this.#sink.open) return;
    this.#sink.write(parts, lengths, bytes, deflated);
    if (this.#oldest === Infinity) return;
    this.#observer?.delivered(Math.max(0, Date.now() - this.#oldest) / 1000);
    this.#oldest = Infinity;
  }
}

const noRun = (): void => undefined;

/** The sending side of each connection. */
const outboxes = new WeakMap<Extra, Outbox>();

/**
 * The hub's graphql-ws server on the ws server's connections: graphql-ws' protocol
 * (makeServer) with the hub's options, on a binding of its own that writes each event's message
 * once for every subscriber sharing it (Relay, Outbox), and counts each message's nesting
 * before graphql-ws parses it. Measured against graphql-ws' own server in the bench.
 */
export function useFramedServer(
  wsServer: WebSocketServer,
  options: (results: Results) => HubServerOptions,
  { log, fanoutBudgetMs, fanout }: Pick<WebSocketLimits, 'log' | 'fanoutBudgetMs' | 'fanout'>,
): void {
  const turns = new FanoutTurns(fanoutBudgetMs);
  const protocol = makeServer(
    options((source, args) => {
      const root = args.rootValue as Root;
      return new Relay(source, root, outboxes.get(root.extra)!, args, turns, log);
    }),
  );
  /** What each handshake agreed to, from its answer's Sec-WebSocket-Extensions header. */
  const agreed = new WeakMap<object, string>();
  wsServer.on('headers', (headers, request) => {
    const extensions = headers.find((header) =>
      header.toLowerCase().startsWith('sec-websocket-extensions:'),
    );
    if (extensions) agreed.set(request, extensions);
  });
  wsServer.on('connection', (socket, request) => {
    const { sink, stop } = localSink(socket, request.socket);
    const outbox = new Outbox(sink, turns, sendsDeflated(agreed.get(request)), fanout);
    const close = (code: number, reason: string) => {
      outbox.flush(true);
      socket.close(code, reason);
    };
    const extra: Extra = { socket: { close }, request };
    outboxes.set(extra, outbox);
    const closed = protocol.opened(
      {
        protocol: socket.protocol,
        send: (data) => outbox.send(data),
        close,
        onMessage: (handle) =>
          socket.on('message', (raw) => {
            const data = String(raw);
            const tooDeep = messageNestingRefusal(data);
            if (tooDeep) return close(CloseCode.BadRequest, tooDeep);
            handle(data).catch((error: unknown) => {
              log.error({ err: error }, 'graphql-ws message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            });
          }),
      },
      extra,
    );
    socket.once('close', (code, reason) => {
      stop();
      void closed(code, String(reason));
    });
    // ws closes the connection itself on a client's bad frame (WS_ERR_*: 1009 for a message past
    // maxPayload), and the client is told the code only if the socket is not cut first.
    socket.once('error', (error: Error & { code?: unknown }) => {
      if (!String(error.code).startsWith('WS_ERR_')) socket.terminate();
    });
  });
}

import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { SessionEventStream } from './session-events.js';
import type { Logger } from '../log.js';
import { runSelection } from './compiled-selection.js';
import {
  maskedResult,
  messageNestingRefusal,
  type HubServerOptions,
  type Root,
  type Results,
  type WebSocketLimits,
} from './graphql-ws-options.js';

/**
 * Results by published event and operation key: subscribers running the same operation with
 * the same variables share one execution per event. Subscription results depend only on the
 * event, never on the connection.
 */
const shared = new WeakMap<object, Map<string, Promise<ExecutionResult> | ExecutionResult>>();

/**
 * A subscription's results: each event of its source run through the operation's selection
 * (compiled by graphql-jit), once per event for all who share the key; a replayed event is
 * this subscriber's alone, and is not shared. return() (the client's `complete`, or the
 * connection closing) ends the source at once, not after its next event as an async
 * generator's would.
 */
class Selections implements AsyncIterableIterator<ExecutionResult> {
  readonly #source: AsyncIterator<unknown>;
  readonly #events: SessionEventStream | null;
  readonly #args: ExecutionArgs;
  readonly #log: Logger;

  constructor(source: AsyncIterable<unknown>, args: ExecutionArgs, log: Logger) {
    this.#source = source[Symbol.asyncIterator]();
    this.#events = this.#source instanceof SessionEventStream ? this.#source : null;
    this.#args = args;
    this.#log = log;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    const step = await this.#source.next();
    if (step.done) return { value: undefined, done: true };
    return { value: await this.#result(step.value), done: false };
  }

  #result(event: unknown): Promise<ExecutionResult> | ExecutionResult {
    const run = () => {
      const result = runSelection(this.#args, event);
      const mask = (r: ExecutionResult) => maskedResult(r, this.#log);
      return 'then' in result ? result.then(mask) : mask(result);
    };
    if (this.#events?.replaying || typeof event !== 'object' || event === null) return run();
    const { key } = this.#args.rootValue as Root;
    let results = shared.get(event);
    if (!results) shared.set(event, (results = new Map()));
    let result = results.get(key);
    if (result === undefined) results.set(key, (result = run()));
    return result;
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    void this.#source.return?.().catch(() => undefined);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

type Listener = (...args: any[]) => void;

/**
 * graphql-ws' binding JSON.parses each message as it arrives and offers no hook before that
 * (jsonMessageReviver runs once every level is built), so the listeners it adds to each socket
 * are wrapped as it adds them, by a connection listener that runs before its own:
 * - a message nested too deep closes the connection with 4400 and reaches no listener;
 * - an error ws raises for a client's bad frame (`WS_ERR_*`: a message past maxPayload, say)
 *   reaches none either: ws has closed the connection with its code (1009) already, and
 *   graphql-ws would print it as an internal error for every such client.
 */
function guardMessages(wsServer: WebSocketServer): void {
  wsServer.on('connection', (socket: WebSocket) => {
    const on = socket.on.bind(socket) as (event: string | symbol, listener: Listener) => WebSocket;
    // Each wrapper names its listener, as once() does, so that removeListener finds it.
    const wrap = (listener: Listener, wrapper: Listener) => Object.assign(wrapper, { listener });
    const guarded = (event: string | symbol, listener: Listener): WebSocket => {
      if (event === 'message') {
        return on(
          event,
          wrap(listener, (data: RawData, isBinary: boolean) => {
            const text = String(data);
            const tooDeep = messageNestingRefusal(text);
            if (tooDeep) socket.close(CloseCode.BadRequest, tooDeep);
            else listener(text, isBinary);
          }),
        );
      }
      if (event === 'error') {
        return on(
          event,
          wrap(listener, (error: Error & { code?: unknown }) => {
            if (!String(error.code).startsWith('WS_ERR_')) listener(error);
          }),
        );
      }
      return on(event, listener);
    };
    // EventEmitter's once() adds its listener through on().
    socket.on = guarded as WebSocket['on'];
    socket.addListener = guarded as WebSocket['addListener'];
  });
}

/** graphql-ws' own server (`useServer` from graphql-ws/use/ws), with the hub's options. */
export function useLibraryServer(
  wsServer: WebSocketServer,
  options: (results: Results) => HubServerOptions,
  { log }: Pick<WebSocketLimits, 'log'>,
): void {
  const results: Results = (source, args) => new Selections(source, args, log);
  guardMessages(wsServer);
  useServer({ ...options(results), isProd: true }, wsServer);
}

import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Logger } from '../log.js';
import { runSelection } from './compiled-selection.js';
import type { Part } from './frames.js';
import { masked } from './masked-error.js';

/**
 * One execution and one serialisation per published event and operation, shared by every
 * subscriber running the same operation with the same variables: 100 dashboards on one session
 * cost one execution and one JSON.stringify per event, not 100, and the bytes are encoded once.
 * Subscription results depend only on the event, never on the connection.
 */
const shared = new WeakMap<object, Map<string, Promise<Buffer> | Buffer>>();

/**
 * The end of a `next` message as graphql-ws writes it: the result (errors as their JSON) and
 * the message's closing brace. The message's start is the subscription's own (see Relay).
 */
function messageEnd(result: ExecutionResult, log: Logger): string {
  const errors = result.errors?.map((error) => masked(error, log).toJSON());
  return `${JSON.stringify(errors ? { ...result, errors } : result)}}`;
}

/**
 * The end of the event's message for the operation `key`; with `share`, made once for all its
 * subscribers, as bytes. Unshared (a replayed event), it stays a string until the outbox writes
 * it: one object less per event.
 */
export function executeShared(
  key: string,
  args: ExecutionArgs,
  event: unknown,
  share: boolean,
  log: Logger,
): Promise<Part> | Part {
  // The selection maps one event to its result (yoga's execute would subscribe again).
  const result = () => runSelection(args, event);
  if (!share || typeof event !== 'object' || event === null) {
    const once = result();
    const end = (r: ExecutionResult) => messageEnd(r, log);
    return 'then' in once ? once.then(end) : end(once);
  }
  let results = shared.get(event);
  if (!results) shared.set(event, (results = new Map()));
  let end = results.get(key);
  if (end === undefined) {
    const once = result();
    const bytes = (r: ExecutionResult) => Buffer.from(messageEnd(r, log));
    results.set(key, (end = 'then' in once ? once.then(bytes) : bytes(once)));
  }
  return end;
}

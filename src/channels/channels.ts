import { systemClock, type Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import { SubscriberQueue } from '../events/subscriber-queue.js';
import type { SqliteChannelLog } from './sqlite-channel-log.js';
import type { ChannelInfo, ChannelMessage } from './channel.js';

/** Longest text one send_to_channel may carry, in characters. */
export const maxChannelTextChars = 65_536;

export interface ChannelsOptions {
  /** Channels open without a listener (`--channel`), by name, with their descriptions. */
  readonly declared: ReadonlyMap<string, string | null>;
  /** Messages a listener may fall behind by before it is dropped (it resumes with `after`). */
  readonly bufferLimit: number;
  readonly clock?: Clock;
}

interface Listeners {
  readonly deliver: Set<(message: ChannelMessage) => void>;
  /** What the first listener that gave one said the channel is. */
  description: string | null;
}

/**
 * Named outputs the sessions write to. A channel is open while `--channel` declares it or a
 * listener reads it, as an adapter's pipe exists while the adapter runs; a message to a closed
 * channel is refused, naming the open ones. Every message is stored before it is delivered, so
 * a listener that comes back with `after` gets what it missed.
 */
export class Channels {
  readonly #options: ChannelsOptions;
  readonly #clock: Clock;
  readonly #log: SqliteChannelLog;
  readonly #listeners = new Map<string, Listeners>();

  constructor(options: ChannelsOptions, log: SqliteChannelLog) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#log = log;
  }

  /** The open channels, by name. */
  list(): ChannelInfo[] {
    const names = new Set([...this.#options.declared.keys(), ...this.#listeners.keys()]);
    return [...names].sort().map((name) => this.#info(name));
  }

  /** The channel as listed, open or not. */
  get(name: string): ChannelInfo {
    return this.#info(name);
  }

  isOpen(name: string): boolean {
    return this.#options.declared.has(name) || this.#listeners.has(name);
  }

  /** Stores the message as the channel's next, then hands it to every listener. */
  send(sessionId: string, channel: string, text: string): ChannelMessage {
    if (!this.isOpen(channel)) {
      const open = this.list().map((info) => info.name);
      throw new HubError(
        ErrorCode.ChannelClosed,
        `channel "${channel}" is not open; ${open.length > 0 ? `open channels: ${open.join(', ')}` : 'no channel is open'}`,
      );
    }
    if (text.length > maxChannelTextChars) {
      throw new HubError(
        ErrorCode.BadInput,
        `message is ${text.length} characters long; the limit is ${maxChannelTextChars}`,
      );
    }
    const message = this.#log.append(channel, sessionId, text, this.#clock.now());
    for (const deliver of [...(this.#listeners.get(channel)?.deliver ?? [])]) deliver(message);
    return message;
  }

  /**
   * The channel's messages for one listener, which keeps it open until return(): with `after`,
   * the stored ones with a greater seq first, then the live ones. The listener joins and the log
   * is read in one synchronous step, and a message is stored and delivered in another, so the
   * seam has no gap and no duplicate.
   */
  listen(
    channel: string,
    after: number | null,
    description: string | null = null,
  ): AsyncIterableIterator<ChannelMessage> {
    const limit = this.#options.bufferLimit;
    const live = new SubscriberQueue<ChannelMessage>(
      limit,
      () =>
        new HubError(
          ErrorCode.SubscriberTooSlow,
          `listener fell more than ${limit} messages behind; listen again with "after"`,
        ),
    );
    const leave = this.#join(channel, description, (message) => live.push(message));
    const missed = after === null ? [] : this.#log.after(channel, after, Number.MAX_SAFE_INTEGER);
    let next = 0;
    return {
      next: () =>
        next < missed.length
          ? Promise.resolve({ value: missed[next++]!, done: false })
          : live.next(),
      return: () => {
        leave();
        return live.return();
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  prune(): void {
    this.#log.prune(this.#clock.now());
  }

  #join(
    channel: string,
    description: string | null,
    deliver: (message: ChannelMessage) => void,
  ): () => void {
    let listeners = this.#listeners.get(channel);
    if (!listeners) this.#listeners.set(channel, (listeners = { deliver: new Set(), description }));
    listeners.description ??= description;
    const own = listeners;
    own.deliver.add(deliver);
    return () => {
      own.deliver.delete(deliver);
      if (own.deliver.size === 0 && this.#listeners.get(channel) === own)
        this.#listeners.delete(channel);
    };
  }

  #info(name: string): ChannelInfo {
    const listeners = this.#listeners.get(name);
    return {
      name,
      description: this.#options.declared.get(name) ?? listeners?.description ?? null,
      listeners: listeners?.deliver.size ?? 0,
      lastMessageAt: this.#log.last(name)?.at ?? null,
    };
  }
}

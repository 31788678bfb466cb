import type { StoredEvent } from './hook-event.js';

/** What the bus carries for one session: its events, then at most one end. */
export type BusMessage =
  { readonly kind: 'event'; readonly event: StoredEvent } | { readonly kind: 'end' };

export type BusListener = (message: BusMessage) => void;

/**
 * Live fan-out of stored events, per session. Delivery is synchronous and in publish order, so
 * a listener never sees events out of seq order; slow consumers buffer on their own side.
 */
export interface EventBus {
  subscribe(sessionId: string, listener: BusListener): () => void;
  publish(sessionId: string, message: BusMessage): void;
}

/** The single-process bus. */
export class LocalEventBus implements EventBus {
  readonly #listeners = new Map<string, Set<BusListener>>();
  readonly #everyEvent = new Set<(event: StoredEvent) => void>();

  /** Hears every session's events as they are published, after each session's own listeners. */
  subscribeAll(listener: (event: StoredEvent) => void): () => void {
    this.#everyEvent.add(listener);
    return () => this.#everyEvent.delete(listener);
  }

  subscribe(sessionId: string, listener: BusListener): () => void {
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(sessionId) === set)
        this.#listeners.delete(sessionId);
    };
  }

  publish(sessionId: string, message: BusMessage): void {
    const set = this.#listeners.get(sessionId);
    if (set) for (const listener of [...set]) listener(message);
    if (message.kind === 'event') for (const listener of this.#everyEvent) listener(message.event);
  }
}

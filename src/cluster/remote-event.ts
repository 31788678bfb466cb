import type { HookPayload, StoredEvent } from '../events/hook-event.js';

/** A stored event as it crosses Redis or a node call: everything but the parsed payload. */
export interface WireEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly eventName: string;
  readonly receivedAt: number;
  readonly raw: string;
}

export function toWire(event: StoredEvent): WireEvent {
  const { sessionId, seq, eventName, receivedAt, raw } = event;
  return { sessionId, seq, eventName, receivedAt, raw };
}

/** An event read from another node's log; its payload is parsed only when asked for. */
export class RemoteEvent implements StoredEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly eventName: string;
  readonly receivedAt: number;
  readonly raw: string;
  #payload: HookPayload | undefined;

  constructor(wire: WireEvent) {
    this.sessionId = wire.sessionId;
    this.seq = wire.seq;
    this.eventName = wire.eventName;
    this.receivedAt = wire.receivedAt;
    this.raw = wire.raw;
  }

  get payload(): HookPayload {
    return (this.#payload ??= JSON.parse(this.raw) as HookPayload);
  }

  toJSON(): WireEvent {
    return toWire(this);
  }
}

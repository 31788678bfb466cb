import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { RecordTable } from '../store/record-table.js';
import { asSubmitted, MessageStatus, promptOf, type MessageRecord } from './message.js';
import { MessageKind } from './message-text.js';
import { beyondRetention } from '../store/retention.js';
import { promptCarries, type InputMode } from '../runtime/prompt-input.js';
import type { ScreenState } from '../runtime/session-runtime.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';
import { inTurn } from './dialog-watch.js';

/** What the queue needs of a session: its state, its input box and its keyboard. */
export interface SessionPort {
  get(id: string): SessionRecord | undefined;
  /** Resolves when `done()` holds (checked on every change of the session) or after `timeoutMs`. */
  waitForChange(id: string, done: () => boolean, timeoutMs: number): Promise<void>;
  look(id: string): Promise<ScreenState>;
  /** When a person last typed in the session's terminal (ms since the epoch); null if never. */
  lastTyped(id: string): Promise<number | null>;
  /** Types text into the input box for `mode` once claude can take typing. */
  type(id: string, text: string, mode: InputMode): Promise<void>;
  keys(id: string, keys: readonly string[]): Promise<void>;
  /** Calls back with each stored event of the session. */
  events(id: string, listener: (event: StoredEvent) => void): () => void;
  /**
   * Whether something beside the session's own state holds its messages back (a budget reached,
   * or a turn's cost not yet checked against one); a change to it wakes the session.
   */
  heldBack?(id: string): boolean;
}

export interface MessageQueueOptions {
  /** Messages that may wait per session; one more is refused with QUEUE_FULL. */
  readonly limit: number;
  /** How long a submitted message may go without its UserPromptSubmit before the screen is read. */
  readonly confirmTimeoutMs: number;
  /** How long a session may stay not ready (starting, blocked) before its messages fail. */
  readonly readyTimeoutMs: number;
  /**
   * How long after a person's last key in the session's terminal a message still waits (0: it
   * does not). The wait has no other bound: each key moves its end, as the person comes first.
   */
  readonly typingGraceMs: number;
  readonly changed: (message: MessageRecord) => void;
  readonly clock?: Clock;
}

export interface EnqueueOptions {
  /** Wait while a person types in the session's terminal (true unless the caller chose not to). */
  readonly typingGuard?: boolean;
  /** What the text is to claude (PROMPT unless the caller chose otherwise). */
  readonly kind?: MessageKind;
  /** Ahead of the messages waiting (the hub's own: a cut-off turn continued). */
  readonly first?: boolean;
}

/** How each kind of message is typed. */
const inputModes: Record<MessageKind, InputMode> = {
  PROMPT: 'prompt',
  SLASH_COMMAND: 'command',
  SHELL: 'shell',
};

/** A message in its session's FIFO, with how it is to be delivered. */
interface Waiting {
  readonly message: MessageRecord;
  readonly typingGuard: boolean;
}

/**
 * Per session, a FIFO of messages delivered one per turn: each waits until the session is IDLE
 * with an empty input box and nobody has typed in its terminal for typingGraceMs, is pasted and
 * submitted, and counts as delivered only when the session's UserPromptSubmit carries its text.
 * Several clients may enqueue at once.
 */
export class MessageQueue {
  readonly #options: MessageQueueOptions;
  readonly #clock: Clock;
  readonly #port: SessionPort;
  readonly #store: RecordTable<MessageRecord>;
  readonly #queues = new Map<string, Waiting[]>();
  readonly #workers = new Set<string>();
  readonly #messages = new Map<string, MessageRecord>();

  constructor(options: MessageQueueOptions, port: SessionPort, store: RecordTable<MessageRecord>) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#port = port;
    this.#store = store;
    for (const message of store.loadAll()) {
      this.#messages.set(message.id, message);
      if (message.status === MessageStatus.Queued || message.status === MessageStatus.Sent) {
        this.#update(message, {
          status: MessageStatus.Failed,
          error: 'the hub restarted before it was delivered',
        });
      }
    }
  }

  /** Every message, of every session. */
  all(): Iterable<MessageRecord> {
    return this.#messages.values();
  }

  /** Queues text for the session; from a channel, it is typed below a header naming it. */
  enqueue(
    sessionId: string,
    text: string,
    channel: string | null = null,
    { typingGuard = true, kind = MessageKind.Prompt, first = false }: EnqueueOptions = {},
  ): MessageRecord {
    const queue = this.#queues.get(sessionId) ?? [];
    if (queue.length >= this.#options.limit) {
      throw new HubError(
        ErrorCode.QueueFull,
        `session ${sessionId} has ${queue.length} messages waiting already (the limit is ${this.#options.limit})`,
      );
    }
    const message: MessageRecord = {
      id: randomUUID(),
      sessionId,
      text,
      channel,
      kind,
      status: MessageStatus.Queued,
      queuedAt: this.#clock.now(),
      sentAt: null,
      deliveredAt: null,
      promptSeq: null,
      error: null,
      heldBy: null,
    };
    this.#messages.set(message.id, message);
    this.#store.save(message);
    if (first) queue.unshift({ message, typingGuard });
    else queue.push({ message, typingGuard });
    this.#queues.set(sessionId, queue);
    this.#options.changed(message);
    if (!this.#workers.has(sessionId)) void this.#work(sessionId);
    return message;
  }

  /**
   * Deletes every message of the sessions in `forget`, and per session the delivered or failed
   * ones beyond the latest `keep` (0 keeps all); returns how many.
   */
  prune(keep: number, forget: ReadonlySet<string>): number {
    const drop = beyondRetention(this.#messages.values(), {
      keep,
      forget,
      time: (message) => message.queuedAt,
      open: (message) =>
        message.status === MessageStatus.Queued || message.status === MessageStatus.Sent,
    });
    for (const message of drop) this.#messages.delete(message.id);
    for (const id of forget) this.#queues.delete(id);
    this.#store.delete(drop.map((message) => message.id));
    return drop.length;
  }

  /** The session's latest messages, oldest first. */
  list(sessionId: string, last: number): MessageRecord[] {
    const all = [...this.#messages.values()].filter((message) => message.sessionId === sessionId);
    return all.sort((a, b) => a.queuedAt - b.queuedAt).slice(-last);
  }

  /** Resolves once the message is DELIVERED or FAILED, or after `timeoutMs`. */
  settled(message: MessageRecord, timeoutMs: number): Promise<void> {
    return this.#port.waitForChange(
      message.sessionId,
      () => message.status === MessageStatus.Delivered || message.status === MessageStatus.Failed,
      timeoutMs,
    );
  }

  async #work(sessionId: string): Promise<void> {
    this.#workers.add(sessionId);
    try {
      for (;;) {
        if (!this.#queues.get(sessionId)?.length) return;
        // The message is taken once the session is ready: one put first meanwhile goes first.
        const waited = await this.#untilIdle(sessionId).then(
          () => null,
          (error: unknown) => error as Error,
        );
        const next = this.#queues.get(sessionId)?.shift();
        if (!next) return;
        const { message, typingGuard } = next;
        await (waited ? Promise.reject(waited) : this.#deliver(message, typingGuard)).catch(
          (error: unknown) =>
            this.#update(message, {
              status: MessageStatus.Failed,
              error: (error as Error).message,
            }),
        );
      }
    } finally {
      this.#workers.delete(sessionId);
    }
  }

  async #deliver(message: MessageRecord, typingGuard: boolean): Promise<void> {
    const id = message.sessionId;
    // One per turn: wait for the end of the current turn (and of any startup); after a hold for a
    // person typing, again, since they may have submitted a prompt of their own meanwhile.
    do {
      await this.#untilIdle(id);
    } while (typingGuard && (await this.#heldForTyping(message)));
    const box = await this.#emptyInputBox(id);
    if (box !== '')
      throw new Error(
        box === null
          ? 'the input box is not on screen'
          : `the input box holds other text: ${JSON.stringify(box.slice(0, 200))}`,
      );

    const kind = message.kind ?? MessageKind.Prompt;
    // A CR in a terminal is Enter: line breaks are sent as LF whatever the client used.
    const prompt = promptOf(message).replace(/\r\n?/g, '\n');
    const expected = asSubmitted(prompt).trim();
    let confirmed: StoredEvent | null = null;
    const stop = this.#port.events(id, (event) => {
      if (confirmed || event.eventName !== 'UserPromptSubmit') return;
      if (typeof event.payload.prompt === 'string' && promptCarries(event.payload.prompt, prompt))
        confirmed = event;
    });
    try {
      await this.#port.type(id, prompt, inputModes[kind]);
      await this.#port.keys(id, ['Enter']);
      this.#update(message, { status: MessageStatus.Sent, sentAt: this.#clock.now() });
      if (kind !== MessageKind.Prompt) {
        return await this.#confirmCommand(message, () => confirmed);
      }

      for (const retry of [true, false]) {
        await this.#port.waitForChange(
          id,
          () => confirmed !== null,
          this.#options.confirmTimeoutMs,
        );
        if (confirmed) {
          const event: StoredEvent = confirmed;
          this.#update(message, {
            status: MessageStatus.Delivered,
            deliveredAt: event.receivedAt,
            promptSeq: event.seq,
          });
          return;
        }
        const left = (await this.#port.look(id)).inputText;
        // The Enter was swallowed: the text still sits in the box. Press it once more.
        const stillTyped =
          left &&
          (expected.startsWith(left.slice(0, 40).trim()) || left.startsWith('[Pasted text #'));
        if (retry && stillTyped) {
          await this.#port.keys(id, ['Enter']);
          continue;
        }
        throw new Error(
          `no UserPromptSubmit carried the text within ${this.#options.confirmTimeoutMs} ms; the input box holds ${JSON.stringify((left ?? '').slice(0, 200))}`,
        );
      }
    } finally {
      stop();
    }
  }

  /**
   * A slash command or a shell line fires no UserPromptSubmit when claude acts on it: it is
   * delivered once the input box took it (or by a UserPromptSubmit that carries it, as an
   * unknown command's text does).
   */
  async #confirmCommand(
    message: MessageRecord,
    confirmed: () => StoredEvent | null,
  ): Promise<void> {
    const deadline = this.#clock.now() + this.#options.confirmTimeoutMs;
    let tookAt: number | null = null;
    while (this.#clock.now() < deadline) {
      const event = confirmed();
      if (event) {
        this.#update(message, {
          status: MessageStatus.Delivered,
          deliveredAt: event.receivedAt,
          promptSeq: event.seq,
        });
        return;
      }
      const box = (await this.#port.look(message.sessionId)).inputText;
      if (box !== null && !box.includes(message.text.trim())) tookAt ??= this.#clock.now();
      // A prompt's UserPromptSubmit follows within moments of the box clearing; a command has none.
      if (tookAt !== null && this.#clock.now() - tookAt > 1000) {
        this.#update(message, { status: MessageStatus.Delivered, deliveredAt: tookAt });
        return;
      }
      await this.#clock.sleep(100);
    }
    throw new Error('the command stayed in the input box');
  }

  /**
   * Resolves once the session is IDLE and no budget holds it. A running turn (BUSY, or BLOCKED on
   * a dialog in its middle) and a budget reached are waited out however long they take; a
   * session that is not ready (starting, blocked) fails the message after readyTimeoutMs, and
   * one that ended at once.
   */
  async #untilIdle(id: string): Promise<void> {
    const status = () => this.#port.get(id)?.status;
    const ready = () => status() === SessionStatus.Idle && !this.#port.heldBack?.(id);
    for (;;) {
      await this.#port.waitForChange(
        id,
        () => ready() || !isRunning(status() ?? SessionStatus.Stopped),
        this.#options.readyTimeoutMs,
      );
      const record = this.#port.get(id);
      if (ready()) return;
      if (record?.status === SessionStatus.Idle) continue; // held back
      if (!record || !inTurn(record)) {
        const now = record?.status.toLowerCase() ?? 'gone';
        throw new Error(`the session is ${now}, not ready for input`);
      }
    }
  }

  /**
   * Holds the message while a person typed in the session's terminal within typingGraceMs, and
   * says so in its heldBy; resolves with whether it held, once the grace passed without a key or
   * the session left IDLE.
   */
  async #heldForTyping(message: MessageRecord): Promise<boolean> {
    const graceMs = this.#options.typingGraceMs;
    const id = message.sessionId;
    const idle = () => this.#port.get(id)?.status === SessionStatus.Idle;
    let held = false;
    while (graceMs > 0 && idle()) {
      const typedAt = await this.#port.lastTyped(id);
      const now = this.#clock.now();
      if (typedAt === null || typedAt + graceMs <= now) break;
      held = true;
      const ago = Math.max(0, Math.round((now - typedAt) / 1000));
      this.#update(message, {
        heldBy: `a person typed in the terminal ${ago} s ago; waiting until ${graceMs / 1000} s pass without typing`,
      });
      await this.#port.waitForChange(id, () => !idle(), typedAt + graceMs - now);
    }
    if (message.heldBy) this.#update(message, { heldBy: null });
    return held;
  }

  /** Reads the input box, waiting briefly for a just-finished turn to clear it. */
  async #emptyInputBox(id: string): Promise<string | null> {
    let box: string | null = null;
    for (let i = 0; i < 20; i++) {
      box = (await this.#port.look(id)).inputText;
      if (box === '') return box;
      await this.#clock.sleep(100);
    }
    return box;
  }

  #update(message: MessageRecord, change: Partial<MessageRecord>): void {
    Object.assign(message, change);
    this.#store.save(message);
    this.#options.changed(message);
  }
}

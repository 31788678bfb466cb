import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import type { ScreenState } from '../../src/runtime/session-runtime.js';
import type { MessageRecord } from '../../src/sessions/message.js';
import {
  MessageQueue,
  type MessageQueueOptions,
  type SessionPort,
} from '../../src/sessions/message-queue.js';
import type { SessionStatus } from '../../src/sessions/session.js';
import { openDatabase } from '../../src/store/database.js';
import { RecordTable } from '../../src/store/record-table.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { session } from '../helpers/records.js';

/**
 * One session as the queue sees it: its status, when a person last typed in its terminal, and a
 * claude that answers each Enter with the UserPromptSubmit of what was typed.
 */
class FakeSession implements SessionPort {
  readonly record = session('s', 'IDLE', 0);
  /** What lastTyped answers. */
  typedAt: number | null = null;
  readonly typed: string[] = [];
  #box = '';
  #seq = 0;
  readonly #listeners = new Set<(event: StoredEvent) => void>();
  readonly #waiters = new Set<() => void>();
  readonly #clock: FakeClock;

  constructor(clock: FakeClock) {
    this.#clock = clock;
  }

  get(id: string) {
    return id === this.record.id ? this.record : undefined;
  }
  waitForChange(_id: string, done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        cancel();
        this.#waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const cancel = this.#clock.after(timeoutMs, finish);
      this.#waiters.add(check);
    });
  }
  async look(): Promise<ScreenState> {
    return { dialog: null, inputText: this.#box, turnRunning: false };
  }
  async lastTyped(): Promise<number | null> {
    return this.typedAt;
  }
  async type(_id: string, text: string): Promise<void> {
    this.typed.push(text);
    this.#box += text;
  }
  async keys(_id: string, keys: readonly string[]): Promise<void> {
    if (!keys.includes('Enter')) return;
    const prompt = this.#box;
    this.#box = '';
    const payload = { session_id: 's', hook_event_name: 'UserPromptSubmit', prompt };
    const event: StoredEvent = {
      sessionId: 's',
      seq: ++this.#seq,
      eventName: 'UserPromptSubmit',
      receivedAt: this.#clock.now(),
      raw: JSON.stringify(payload),
      payload,
    };
    for (const listener of this.#listeners) listener(event);
    this.#changed();
  }
  events(_id: string, listener: (event: StoredEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  setStatus(status: SessionStatus): void {
    this.record.status = status;
    this.#changed();
  }
  #changed(): void {
    for (const check of [...this.#waiters]) check();
  }
}

/** Lets the queue's pending steps run (they await the port's promises), no clock moved. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function until(check: () => boolean): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`never held: ${String(check)}`);
    },
    { timeout: 2000, interval: 5 },
  );
}

describe('the message queue and a person at the terminal', () => {
  let dir: string;
  let db: Database.Database;
  let clock: FakeClock;
  let port: FakeSession;
  /** Every heldBy a message was published with, in order (repeats left out). */
  let heldBy: (string | null)[];

  function makeQueue(options: Partial<MessageQueueOptions> = {}): MessageQueue {
    return new MessageQueue(
      {
        limit: 10,
        confirmTimeoutMs: 1000,
        readyTimeoutMs: 60_000,
        typingGraceMs: 10_000,
        clock,
        changed: (message) => {
          if (heldBy.at(-1) !== message.heldBy) heldBy.push(message.heldBy ?? null);
        },
        ...options,
      },
      port,
      new RecordTable<MessageRecord>(db, 'messages'),
    );
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cch-queue-'));
    db = openDatabase(dir);
    clock = new FakeClock();
    port = new FakeSession(clock);
    heldBy = [];
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a message while a person typed within the grace, says why, and delivers it after', async () => {
    const queue = makeQueue();
    port.typedAt = clock.now() - 3000;
    const message = queue.enqueue('s', 'hello');
    await until(() => message.heldBy != null);
    expect(message).toMatchObject({
      status: 'QUEUED',
      heldBy: 'a person typed in the terminal 3 s ago; waiting until 10 s pass without typing',
    });

    clock.advance(6999);
    await settle();
    expect(port.typed).toEqual([]);
    // They type again just before the grace ends: it starts over from that key.
    port.typedAt = clock.now();
    clock.advance(1);
    await until(() => message.heldBy?.includes(' 0 s ago') === true);
    clock.advance(9998);
    await settle();
    expect(message.status).toBe('QUEUED');
    expect(port.typed).toEqual([]);

    clock.advance(1);
    await until(() => message.status === 'DELIVERED');
    expect(port.typed).toEqual(['hello']);
    expect(message.heldBy).toBeNull();
    expect(heldBy).toEqual([
      null,
      'a person typed in the terminal 3 s ago; waiting until 10 s pass without typing',
      'a person typed in the terminal 0 s ago; waiting until 10 s pass without typing',
      null,
    ]);
    const stored = new RecordTable<MessageRecord>(db, 'messages').loadAll();
    expect(stored).toEqual([expect.objectContaining({ status: 'DELIVERED', heldBy: null })]);
  });

  it('lets the prompt the person submitted go first, then delivers once the grace passed', async () => {
    const queue = makeQueue();
    port.typedAt = clock.now();
    const message = queue.enqueue('s', 'after yours');
    await until(() => message.heldBy != null);
    port.setStatus('BUSY');
    await until(() => message.heldBy === null);
    expect(message.status).toBe('QUEUED');

    // Their turn ends 4 s after their last key: 6 s of the grace are left.
    clock.advance(4000);
    port.setStatus('IDLE');
    await until(() => message.heldBy?.includes(' 4 s ago') === true);
    clock.advance(5999);
    await settle();
    expect(port.typed).toEqual([]);
    clock.advance(1);
    await until(() => message.status === 'DELIVERED');
    expect(port.typed).toEqual(['after yours']);
  });

  it('holds nothing with the guard off, nor a message the caller sends now', async () => {
    port.typedAt = clock.now();
    const off = makeQueue({ typingGraceMs: 0 }).enqueue('s', 'guard off');
    await until(() => off.status === 'DELIVERED');

    const now = makeQueue().enqueue('s', 'sent now', null, { typingGuard: false });
    await until(() => now.status === 'DELIVERED');
    expect(port.typed).toEqual(['guard off', 'sent now']);
    expect(heldBy.filter(Boolean)).toEqual([]);
  });

  it('holds nothing when nobody typed, or the last key is older than the grace', async () => {
    const queue = makeQueue();
    const first = queue.enqueue('s', 'nobody typed');
    await until(() => first.status === 'DELIVERED');
    port.typedAt = clock.now() - 10_000;
    const second = queue.enqueue('s', 'typed long ago');
    await until(() => second.status === 'DELIVERED');
    expect(port.typed).toEqual(['nobody typed', 'typed long ago']);
    expect(heldBy.filter(Boolean)).toEqual([]);
  });

  it('waits out a turn longer than the ready timeout, and fails only a session not ready', async () => {
    const queue = makeQueue({ readyTimeoutMs: 30_000 });
    port.setStatus('BUSY');
    const message = queue.enqueue('s', 'after a long turn');
    await settle();
    clock.advance(95_000);
    await settle();
    expect(message.status).toBe('QUEUED');
    port.setStatus('IDLE');
    await until(() => message.status === 'DELIVERED');

    port.setStatus('BLOCKED');
    const blocked = queue.enqueue('s', 'behind a dialog');
    await settle();
    clock.advance(30_000);
    await until(() => blocked.status === 'FAILED');
    expect(blocked.error).toBe('the session is blocked, not ready for input');
  });
});

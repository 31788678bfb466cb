import type Database from 'better-sqlite3';
import type { ChannelMessage } from './channel.js';

interface Row {
  seq: number;
  session_id: string;
  text: string;
  at: number;
}

/** How long channel messages are kept: the latest per channel, and by age. */
export interface ChannelRetention {
  /** Messages kept per channel; 0 keeps all. */
  readonly perChannel: number;
  /** Milliseconds a message is kept; 0 keeps them whatever their age. */
  readonly maxAgeMs: number;
}

/** The messages sessions sent to channels, durable in the hub's SQLite file. */
export class SqliteChannelLog {
  readonly #db: Database.Database;
  readonly #retention: ChannelRetention;
  readonly #insert: Database.Statement;
  readonly #after: Database.Statement;
  readonly #last: Database.Statement;
  readonly #pruneBeyondCount: Database.Statement;
  readonly #pruneOlder: Database.Statement;

  constructor(db: Database.Database, retention: ChannelRetention) {
    this.#db = db;
    this.#retention = retention;
    this.#insert = db.prepare(
      'INSERT INTO channel_messages (channel, seq, session_id, text, at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#after = db.prepare(
      'SELECT seq, session_id, text, at FROM channel_messages WHERE channel = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.#last = db.prepare(
      'SELECT seq, session_id, text, at FROM channel_messages WHERE channel = ? ORDER BY seq DESC LIMIT 1',
    );
    const latest =
      '(SELECT MAX(c.seq) FROM channel_messages AS c WHERE c.channel = channel_messages.channel)';
    this.#pruneBeyondCount = db.prepare(`DELETE FROM channel_messages WHERE seq <= ${latest} - ?`);
    this.#pruneOlder = db.prepare(`DELETE FROM channel_messages WHERE at < ? AND seq < ${latest}`);
  }

  /** Stores a message as the channel's next one; committed when it returns. */
  append(channel: string, sessionId: string, text: string, at: number): ChannelMessage {
    const seq = (this.last(channel)?.seq ?? 0) + 1;
    this.#insert.run(channel, seq, sessionId, text, at);
    return { seq, channel, sessionId, text, at };
  }

  /** The channel's messages with a greater seq than `after`, oldest first, at most `limit`. */
  after(channel: string, after: number, limit: number): ChannelMessage[] {
    return (this.#after.all(channel, after, limit) as Row[]).map((row) => message(channel, row));
  }

  last(channel: string): ChannelMessage | null {
    const row = this.#last.get(channel) as Row | undefined;
    return row ? message(channel, row) : null;
  }

  /** Deletes what is past retention; a channel's latest message stays, so its seq goes on. */
  prune(now: number): void {
    const { perChannel, maxAgeMs } = this.#retention;
    this.#db.transaction(() => {
      if (perChannel > 0) this.#pruneBeyondCount.run(perChannel);
      if (maxAgeMs > 0) this.#pruneOlder.run(now - maxAgeMs);
    })();
  }
}

function message(channel: string, row: Row): ChannelMessage {
  return { seq: row.seq, channel, sessionId: row.session_id, text: row.text, at: row.at };
}

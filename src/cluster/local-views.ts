import type { SessionRecord } from '../sessions/session.js';
import type { LocalParts } from './local-parts.js';
import type { RecordChange, RecordView, SessionView } from './record-mirror.js';
import type { RecordKind } from './redis-keys.js';

/**
 * The views of this node's records that the other nodes read: each names this node, and a
 * session's carries its live status, attach command, last seq and cost.
 */
export class LocalViews {
  readonly #local: LocalParts;
  readonly #self: string;

  constructor(local: LocalParts, self: string) {
    this.#local = local;
    this.#self = self;
  }

  session(record: SessionRecord): SessionView {
    const sessions = this.#local.sessions;
    return {
      ...record,
      hookSecretHash: '',
      status: sessions.statusOf(record),
      node: this.#self,
      attachCommand: sessions.attachCommand(record),
      lastSeq: this.#local.eventLog.lastSeq(record.id),
      costUsd: this.#local.costs.sessionCost(record.id),
    };
  }

  /** The view of a local record; records are live objects, so it is current when it is made. */
  of(kind: RecordKind, record: { readonly id: string }): RecordView {
    return kind === 'sessions'
      ? this.session(record as SessionRecord)
      : { ...record, node: this.#self };
  }

  /** Every record of this node, as views. */
  *all(): Iterable<RecordChange> {
    const local: [RecordKind, Iterable<{ readonly id: string }>][] = [
      ['sessions', this.#local.sessions.list()],
      ['permissions', this.#local.hub.permissionRequests()],
      ['messages', this.#local.sessions.messages.all()],
    ];
    for (const [kind, records] of local) {
      for (const record of records) yield { kind, view: this.of(kind, record) };
    }
  }
}

/** What the page knows about the hub: sessions, the attention queue and pending permissions. */
import type {
  AttentionFieldsFragment,
  DashboardOverviewQuery,
  PermissionFieldsFragment,
  SessionFieldsFragment,
} from '../../src/gql/graphql.js';

export type Session = SessionFieldsFragment;
export type Permission = PermissionFieldsFragment;
export type AttentionItem = AttentionFieldsFragment;

/** What makes an attention item the same item: its session, reason, and since or request. */
type AttentionKeyFields = Pick<AttentionItem, 'reason' | 'since'> & {
  session: { id: string };
  permissionRequest?: { id: string } | null;
};
const attentionKey = (item: AttentionKeyFields) =>
  `${item.session.id} ${item.reason} ${item.permissionRequest?.id ?? String(item.since)}`;

/** The attention queue's order of reasons, most urgent first (Query.attention's). */
const urgency = ['PERMISSION', 'BLOCKED', 'DISCONNECTED', 'CRASHED', 'BUDGET_REACHED', 'IDLE'];

export class HubState {
  /** In the hub's order: oldest first. */
  readonly sessions = new Map<string, Session>();
  /** Pending only, oldest first. */
  readonly permissions = new Map<string, Permission>();
  /**
   * As the hub orders it: PERMISSION, BLOCKED, DISCONNECTED, CRASHED, BUDGET_REACHED, IDLE;
   * longest-waiting first. Only the attention subscription sets it, so an overview read over
   * HTTP never puts back an older queue.
   */
  attention: AttentionItem[] = [];
  /** The queue's items by session. */
  #attentionBySession = new Map<string, AttentionItem>();
  /** The queue's items by what makes an item the same item. */
  #attentionByKey = new Map<string, AttentionItem>();
  /** Whether the first overview arrived. */
  loaded = false;
  readonly #listeners: (() => void)[] = [];

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  setOverview(overview: DashboardOverviewQuery): void {
    this.sessions.clear();
    for (const session of overview.sessions) this.sessions.set(session.id, session);
    this.permissions.clear();
    for (const request of overview.permissionRequests) this.permissions.set(request.id, request);
    this.loaded = true;
    this.#changed();
  }

  /** An update of the attention subscription: the whole queue, or what changed in it. */
  applyAttention(update: {
    whole: boolean;
    items: AttentionItem[];
    raised: AttentionItem[];
    cleared: AttentionKeyFields[];
  }): void {
    const byKey = this.#attentionByKey;
    if (update.whole) byKey.clear();
    for (const item of update.cleared) byKey.delete(attentionKey(item));
    for (const item of [...update.items, ...update.raised]) byKey.set(attentionKey(item), item);
    this.attention = [...byKey.values()].sort(
      (a, b) =>
        urgency.indexOf(a.reason) - urgency.indexOf(b.reason) ||
        Date.parse(String(a.since)) - Date.parse(String(b.since)),
    );
    this.#attentionBySession = new Map(this.attention.map((item) => [item.session.id, item]));
    this.#changed();
  }

  putSession(session: Session): void {
    this.sessions.set(session.id, session);
    this.#changed();
  }

  /** A request leaves the list as soon as it is decided, answered or expired. */
  putPermission(request: Permission): void {
    if (request.status === 'PENDING') this.permissions.set(request.id, request);
    else this.permissions.delete(request.id);
    this.#changed();
  }

  /** When the session has waited since, if it is in the attention queue. */
  attentionOf(sessionId: string): AttentionItem | undefined {
    return this.#attentionBySession.get(sessionId);
  }
}

/** The name a person gave the session, or the start of its id. */
export function sessionLabel(session: Pick<Session, 'id' | 'name'> | undefined, id = ''): string {
  return session?.name || (session?.id ?? id).slice(0, 8);
}

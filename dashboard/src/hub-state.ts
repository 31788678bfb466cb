/** What the page knows about the hub: sessions, the attention queue and pending permissions. */
import type {
  AttentionFieldsFragment,
  DashboardOverviewQuery,
  PermissionFieldsFragment,
  SessionFieldsFragment,
  SessionStateFieldsFragment,
} from '../../src/gql/graphql.js';

export type Session = SessionFieldsFragment;
/** What sessionUpdates sends of a session: what changes in its life. */
export type SessionState = SessionStateFieldsFragment;
export type Permission = PermissionFieldsFragment;
export type AttentionItem = AttentionFieldsFragment;

/** What makes an attention item the same item: its session, reason, and since or request. */
type AttentionKeyFields = Pick<AttentionItem, 'reason' | 'since'> & {
  session: { id: string };
  permissionRequest?: { id: string } | null;
};
export const attentionKey = (item: AttentionKeyFields) =>
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
  /** Reads one session whole; null when the hub no longer has it. */
  readonly #loadSession: (id: string) => Promise<Session | null>;
  /**
   * For each load on its way (the overview, or a session heard of first from a change), the
   * changes heard since it was sent, to be put again over what it brings.
   */
  readonly #loads = new Set<SessionState[]>();
  /** Sessions heard of first from a change, being loaded. */
  readonly #unknown = new Set<string>();

  constructor(loadSession: (id: string) => Promise<Session | null>) {
    this.#loadSession = loadSession;
  }

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Loads the sessions and pending permissions whole (at the start, after a reconnect). */
  loadOverview(request: () => Promise<DashboardOverviewQuery>): Promise<void> {
    return this.#load(request, (overview) => {
      this.sessions.clear();
      for (const session of overview.sessions) this.sessions.set(session.id, session);
      this.permissions.clear();
      for (const request of overview.permissionRequests) this.permissions.set(request.id, request);
      this.loaded = true;
    });
  }

  /**
   * Applies what `request` brings, then the changes heard since it was sent, in their order: a
   * change that came before the load may be newer than what it read, and an older one is
   * followed by the newer ones, so the last change heard wins either way.
   */
  async #load<T>(request: () => Promise<T>, apply: (loaded: T) => void): Promise<void> {
    const heard: SessionState[] = [];
    this.#loads.add(heard);
    try {
      apply(await request());
      for (const change of heard) this.#put(change);
      this.#changed();
    } finally {
      this.#loads.delete(heard);
    }
  }

  /** A change of sessionUpdates: put over what is known of its session, else that is loaded. */
  updateSession(change: SessionState): void {
    for (const heard of this.#loads) heard.push(change);
    if (this.#put(change)) this.#changed();
  }

  /**
   * Puts the change over its session's fields. A session not known yet is loaded whole, once the
   * overview came (which would bring it); false until it is.
   */
  #put(change: SessionState): boolean {
    const { id } = change;
    const known = this.sessions.get(id);
    if (known) {
      this.sessions.set(id, { ...known, ...change });
      return true;
    }
    if (this.loaded && !this.#unknown.has(id)) {
      this.#unknown.add(id);
      void this.#load(
        () => this.#loadSession(id),
        (session) => {
          this.#unknown.delete(id);
          if (session) this.sessions.set(id, session);
        },
      ).catch(() => this.#unknown.delete(id));
    }
    return false;
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

  /** A session whole, as a mutation answers it. */
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

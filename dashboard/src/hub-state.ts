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

export class HubState {
  /** In the hub's order: oldest first. */
  readonly sessions = new Map<string, Session>();
  /** Pending only, oldest first. */
  readonly permissions = new Map<string, Permission>();
  /**
   * As the hub ordered it: PERMISSION, BLOCKED, CRASHED, IDLE; longest-waiting first. Only the
   * attention subscription sets it, so an overview read over HTTP never puts back an older queue.
   */
  attention: AttentionItem[] = [];
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

  setAttention(attention: AttentionItem[]): void {
    this.attention = attention;
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
    return this.attention.find((item) => item.session.id === sessionId);
  }
}

/** The name a person gave the session, or the start of its id. */
export function sessionLabel(session: Pick<Session, 'id' | 'name'> | undefined, id = ''): string {
  return session?.name || (session?.id ?? id).slice(0, 8);
}

import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { CreateSessionInput } from '../sessions/session-manager.js';
import type { SessionRecord } from '../sessions/session.js';
import type { NodeClient } from './node-calls.js';
import type { NodeArgs, NodeOp, NodeResult } from './node-ops.js';
import type { NodeRegistry, NodeState } from './node-registry.js';
import type { RecordMirror, SessionView } from './record-mirror.js';

/**
 * The commands of this node for sessions that other nodes run: each is sent to the node that
 * runs the session, and its answer is returned as is.
 */
export class OwnerCalls {
  readonly #registry: NodeRegistry;
  readonly #records: RecordMirror;
  readonly #client: NodeClient;

  /** `client` is this one's from now on: close() closes it. */
  constructor(deps: { registry: NodeRegistry; records: RecordMirror; client: NodeClient }) {
    this.#registry = deps.registry;
    this.#records = deps.records;
    this.#client = deps.client;
  }

  /** Starts a session on the node named `name`; NODE_NOT_FOUND when no node has that name. */
  async create(name: string, input: CreateSessionInput): Promise<SessionRecord> {
    const target = this.#registry.get(name) ?? (await this.#refreshed(name));
    if (!target) {
      const known = this.#registry
        .list()
        .map((n) => n.name)
        .join(', ');
      throw new HubError(
        ErrorCode.NodeNotFound,
        `no node is named ${describeValue(name)}; the nodes are ${known}`,
      );
    }
    const created = await this.#client.call(target, 'create', { input });
    // Commands may follow at once, before the owner's announcement of the session arrives.
    this.#records.learn('sessions', created);
    return created;
  }

  /** Runs `op` on the node that runs the session. */
  async call<K extends NodeOp>(
    sessionId: string,
    op: K,
    args: NodeArgs<K>,
  ): Promise<NodeResult<K>> {
    const view = this.#records.remote<SessionView>('sessions').get(sessionId);
    if (!view)
      throw new HubError(
        ErrorCode.SessionNotFound,
        `no session has id ${describeValue(sessionId)}`,
      );
    const owner = this.#registry.get(view.node) ?? (await this.#refreshed(view.node));
    if (!owner) {
      throw new HubError(
        ErrorCode.NodeUnreachable,
        `session ${sessionId} runs on node ${view.node}, which is unknown`,
      );
    }
    return this.#client.call(owner, op, args);
  }

  close(): void {
    this.#client.close();
  }

  /** A node that joined since the last refresh is known once Redis has been read again. */
  async #refreshed(node: string): Promise<NodeState | undefined> {
    await this.#registry.refresh().catch(() => undefined);
    return this.#registry.get(node);
  }
}

import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { hubHome, type HubHome } from './hub-process.js';
import { leftovers } from './leftovers.js';
import { LiveQueue } from './live-queue.js';

/** How long a node's lease lasts: a node that stops renewing it is dead this soon. */
export const leaseSeconds = 2;

/** The fields of a session event that `subscribe` reads. */
export const eventFields = 'seq eventName payload';

/** A hub spawned as a node of a cluster, with a graphql-ws client on it. */
export interface ClusterNode {
  readonly name: string;
  readonly args: string[];
  /** Its data dir and tmux socket, kept when it starts again. */
  readonly home: HubHome;
  hub: HubProcess;
  ws: Client;
}

export interface ClusterEvent {
  seq: number;
  eventName: string;
  payload: Record<string, unknown>;
}

/** The nodes of one cluster, by name. */
export interface ClusterNodes {
  /** The node last started with this name. */
  node(name: string): ClusterNode;
  /**
   * Spawns the node `name` on the cluster's Redis, with a lease of `leaseSeconds`; a node
   * started again keeps its home and arguments (its port too).
   */
  start(name: string): Promise<ClusterNode>;
}

/**
 * Hub nodes on one Redis under one key prefix, each in a home of its own (`<homes>-<name>`),
 * with the claude world's environment. They and their clients are ended with the leftovers.
 */
export function clusterNodes(options: {
  redisUrl: string;
  prefix: string;
  homes: string;
  env: Record<string, string | undefined>;
}): ClusterNodes {
  const nodes = new Map<string, ClusterNode>();
  return {
    node: (name) => nodes.get(name)!,
    async start(name) {
      const known = nodes.get(name);
      const home = known?.home ?? hubHome(`${options.homes}-${name}`);
      const args = known?.args ?? [
        ...hubArgs({ port: await freePort(), ...home }),
        '--redis-url',
        options.redisUrl,
        '--redis-prefix',
        options.prefix,
        '--node-name',
        name,
        '--node-lease',
        String(leaseSeconds),
      ];
      const hub = await home.spawn(args, options.env);
      const ws = createClient({
        url: hub.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      leftovers.add(() => ws.dispose());
      const started = { name, args, home, hub, ws };
      nodes.set(name, started);
      return started;
    },
  };
}

/** The data of an operation on a node; throws on errors. */
export const data = (node: ClusterNode, query: string, variables: Record<string, unknown> = {}) =>
  gqlData(node.hub.url, query, variables);

/** A subscription on a node's client: its root field's values, queued. */
export function watch<T>(
  node: ClusterNode,
  query: string,
  variables: Record<string, unknown>,
): LiveQueue<T> {
  const queue = new LiveQueue<T>();
  const dispose = node.ws.subscribe<Record<string, T>>(
    { query, variables },
    {
      next: (result) =>
        result.errors
          ? queue.fail(new Error(JSON.stringify(result.errors)))
          : queue.push(Object.values(result.data!)[0]!),
      error: (error) => queue.fail(new Error(JSON.stringify(error))),
      complete: () => queue.complete(),
    },
  );
  queue.onDispose(dispose);
  return queue;
}

/** A session's events on a node, after `after`. */
export function subscribe(node: ClusterNode, id: string, after: number): LiveQueue<ClusterEvent> {
  return watch<ClusterEvent>(
    node,
    `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { ${eventFields} } }`,
    { id, after },
  );
}

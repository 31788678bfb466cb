import { costliestFirst, type UsageGroup, type UsageTotal } from '../costs/usage-ledger.js';
import type { NodeClient } from './node-calls.js';
import type { NodeRegistry } from './node-registry.js';

/** What each node's own ledger says, by group: summed across the cluster's nodes. */
export interface ClusterUsageDeps {
  readonly registry: Pick<NodeRegistry, 'list' | 'isAlive'>;
  readonly client: Pick<NodeClient, 'call'>;
  readonly self: string;
  /** This node's ledger. */
  readonly local: (since: number, groupBy: UsageGroup) => readonly UsageTotal[];
}

/**
 * Query.usage over the cluster: this node's ledger and every other live node's, asked at once,
 * merged by key. A node whose lease lapsed is left out; one that does not answer fails the whole
 * (NODE_UNREACHABLE, naming it) rather than giving a partial sum.
 */
export async function clusterUsage(
  deps: ClusterUsageDeps,
  since: number,
  groupBy: UsageGroup,
): Promise<UsageTotal[]> {
  const others = deps.registry
    .list()
    .filter((node) => node.name !== deps.self && deps.registry.isAlive(node.name));
  const answers = await Promise.all(
    others.map((node) => deps.client.call(node, 'usage', { since, groupBy })),
  );
  return mergeUsage([deps.local(since, groupBy), ...answers]);
}

/**
 * Groups of several ledgers as one: those of one key summed (tokens, cost, turns, unpriced),
 * the costliest first; groups that tie keep the order they first came in. Pure.
 */
export function mergeUsage(lists: readonly (readonly UsageTotal[])[]): UsageTotal[] {
  const merged = new Map<string | null, UsageTotal>();
  for (const list of lists) {
    for (const total of list) {
      const sum = merged.get(total.key);
      if (!sum) {
        merged.set(total.key, { ...total });
        continue;
      }
      sum.turns += total.turns;
      sum.inputTokens += total.inputTokens;
      sum.outputTokens += total.outputTokens;
      sum.cacheReadTokens += total.cacheReadTokens;
      sum.cacheWriteTokens += total.cacheWriteTokens;
      sum.costUsd += total.costUsd;
      sum.unpriced += total.unpriced;
    }
  }
  return [...merged.values()].sort(costliestFirst);
}

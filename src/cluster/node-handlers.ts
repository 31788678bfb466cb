import { UsageGroup } from '../costs/usage-ledger.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { LocalHub } from '../hub/local-hub.js';
import { messageKind } from '../sessions/message-text.js';
import type { LocalCosts } from './local-parts.js';
import type { LocalViews } from './local-views.js';
import type { NodeHandlers } from './node-ops.js';
import { toWire } from './remote-event.js';

/** What this node runs for the others; results are the views other nodes read. */
export function nodeHandlers(
  hub: LocalHub,
  views: LocalViews,
  costs: LocalCosts,
  self: string,
): NodeHandlers {
  return {
    create: async ({ input }) => views.session(await hub.create(input)),
    resume: async ({ id }) => views.session(await hub.resume(id)),
    stop: async ({ id, removeWorktree }) => views.session(await hub.stop(id, { removeWorktree })),
    interrupt: async ({ id }) => views.session(await hub.interrupt(id)),
    sendKeys: async ({ id, keys }) => views.session(await hub.sendKeys(id, keys)),
    answerDialog: async ({ id, answer }) => views.session(await hub.answerDialog(id, answer)),
    focus: async ({ id, client }) => views.session(await hub.focus(id, client || null)),
    setLabels: async ({ id, labels }) => views.session(await hub.setLabels(id, labels)),
    enqueue: async ({ id, text, channel, typingGuard, kind }) => ({
      ...(await hub.enqueue(id, text, channel || null, { typingGuard, kind: messageKind(kind) })),
      node: self,
    }),
    ask: async ({ id, text, channel, timeoutMs }) => {
      const outcome = await hub.ask(id, text, timeoutMs, channel || null);
      return outcome.kind === 'reply'
        ? { ...outcome, events: outcome.events.map(toWire) }
        : outcome;
    },
    decide: async ({ decision }) => {
      const result = await hub.decide(decision);
      return result.request ? { ...result, request: { ...result.request, node: self } } : result;
    },
    screen: async ({ id }) => hub.screen(hub.require(id)),
    diff: async ({ id, base }) => hub.diff(hub.require(id), base || null),
    commitWorktree: async ({ id, message }) => hub.commitWorktree(id, message),
    changes: async ({ id, turnId, since }) =>
      hub.changes(hub.require(id), turnId ? { turnId } : { since: since < 0 ? null : since }),
    usage: async ({ since, groupBy }) => {
      if (!Object.values<string>(UsageGroup).includes(groupBy))
        throw new HubError(
          ErrorCode.BadInput,
          `groupBy ${describeValue(groupBy)} is no UsageGroup`,
        );
      return costs.usage(since, groupBy);
    },
    turnCosts: async ({ id }) => costs.turnCosts(hub.require(id).id),
  };
}

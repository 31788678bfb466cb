import { setTimeout as sleep } from 'node:timers/promises';
import type { Hub } from './hub.js';
import {
  attentionItems,
  attentionKey,
  raisedItems,
  type AttentionItem,
} from '../sessions/attention.js';

/** The attention queue after a change, and what the change added to it. */
export interface AttentionUpdate {
  readonly items: readonly AttentionItem[];
  /** The items new since the subscriber's previous update; none in the first. */
  readonly raised: readonly AttentionItem[];
}

/**
 * The attention queue now, then again whenever it changes: read again `settleMs` after a
 * session or permission request changes, so a burst of changes makes one update, and sent only
 * when the queue is not what it was.
 */
export async function* attentionUpdates(
  hub: Hub,
  settleMs: number,
): AsyncGenerator<AttentionUpdate> {
  const sources = [hub.sessionUpdates(), hub.permissionChanges()];
  let changed = true;
  let failure: unknown = null;
  let wake = (): void => {};
  for (const source of sources) {
    void (async () => {
      try {
        for await (const _change of source) {
          changed = true;
          wake();
        }
      } catch (error) {
        failure ??= error;
        wake();
      }
    })();
  }
  let previous: readonly AttentionItem[] | null = null;
  try {
    for (;;) {
      if (!changed && failure === null) await new Promise<void>((resolve) => (wake = resolve));
      if (failure !== null) throw failure;
      if (previous !== null) await sleep(settleMs);
      changed = false;
      const items = attentionItems(hub.list(), (id) => hub.pendingPermissions(id));
      if (previous === null || keysOf(previous) !== keysOf(items)) {
        yield { items, raised: previous === null ? [] : raisedItems(previous, items) };
      }
      previous = items;
    }
  } finally {
    // Not awaited: a source waiting for its next change ends when that change comes.
    for (const source of sources) void source.return(undefined);
  }
}

function keysOf(items: readonly AttentionItem[]): string {
  return items.map(attentionKey).join('\n');
}

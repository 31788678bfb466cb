/**
 * The `replay` section: a new subscriber to a long session with `after: 0` gets every stored
 * event; the time until the last one arrives, and the hub's CPU time meanwhile.
 */
import { countEvents } from './event-count.js';
import { ingest, type BenchHub, type Target } from './hook-load.js';
import { ms, type Row } from './row.js';
import { timedSubscription } from './timed-subscription.js';

export async function replay(
  hub: BenchHub,
  options: {
    /** The session replayed; it is filled up to `events` first. */
    readonly target: Target;
    readonly events: number;
  },
): Promise<Row[]> {
  const { url } = hub;
  const { target, events } = options;
  const have = await countEvents(url, target.id);
  await ingest(hub.hooks, target, Math.max(0, events - have), 64);
  const { took, hubCpu } = await timedSubscription(
    hub,
    {
      query: 'subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }',
      variables: { id: target.id },
    },
    { count: events },
  );
  return [
    {
      section: 'replay',
      metric: `after: 0 over ${events.toLocaleString('en')} events`,
      value: `${ms(took)} (hub CPU ${hubCpu.toFixed(0)} ms)`,
      target: '< 1000 ms',
      ok: took < 1000,
    },
  ];
}

/**
 * The `runs` section: turns and actions are folded from the event log when read, never on the
 * way in, so ingest and fan-out carry none of their cost. What they cost is paid by a reader:
 * the first `Session.turns` of a session folds its log (the turn index then keeps the turns and
 * folds only new events), and `sessionActions(after: 0)` replays the log through the fold.
 * Measured on the replay section's session (run `replay` first to fill it).
 */
import { performance } from 'node:perf_hooks';
import { gqlData } from '../harness/graphql-http.js';
import { countEvents } from './event-count.js';
import type { BenchHub, Target } from './hook-load.js';
import { ms, type Row } from './row.js';
import { timedSubscription } from './timed-subscription.js';

/** After the last action, how long no further one must come for the replay to count as done. */
const quietMs = 500;

export async function runs(hub: BenchHub, options: { readonly target: Target }): Promise<Row[]> {
  const { url } = hub;
  const { id } = options.target;
  const events = await countEvents(url, id);
  const over = `over ${events.toLocaleString('en')} events`;

  const query = async () => {
    const t0 = performance.now();
    const { session } = await gqlData(
      url,
      'query($id: ID!) { session(id: $id) { turns(last: 1) { number actions { id } } } }',
      { id },
    );
    return { took: performance.now() - t0, turns: session.turns as { actions: unknown[] }[] };
  };
  const first = (await query()).took;
  const timings = [];
  for (let i = 0; i < 5; i++) timings.push((await query()).took);
  timings.sort((a, b) => a - b);

  const { took, received, hubCpu } = await timedSubscription(
    hub,
    {
      query: 'subscription($id: ID!) { sessionActions(id: $id, after: 0) { seq } }',
      variables: { id },
    },
    { quietMs },
  );
  return [
    {
      section: 'runs (folded on read)',
      metric: `Session.turns ${over}, first read`,
      value: ms(first),
    },
    {
      section: 'runs (folded on read)',
      metric: `Session.turns ${over}, later reads, median of 5`,
      value: ms(timings[2]!),
    },
    {
      section: 'runs (folded on read)',
      metric: `sessionActions after: 0 ${over}`,
      value: `${ms(took)} for ${received.toLocaleString('en')} phases (hub CPU ${hubCpu.toFixed(0)} ms)`,
    },
  ];
}

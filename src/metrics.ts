import type { ModelCost } from './costs/turn-cost.js';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { hookEvents } from './events/registry.js';
import { LoopDelay } from './loop-delay.js';
import type { Timed } from './periodic.js';
import { spawnTimes } from './spawn-time.js';
import type { FanoutObserver } from './subscriptions/graphql-ws-options.js';

/** What the metrics read at scrape time. */
export interface MetricsSources {
  readonly sessionsByStatus: () => Map<string, number>;
  readonly messagesByStatus: () => Map<string, number>;
  /** Restarts of crashed sessions so far, summed over sessions (it only grows). */
  readonly restarts: () => number;
  readonly subscribers: () => number;
  /** Subscriptions to session events cut so far for falling behind (it only grows). */
  readonly subscribersCut: () => number;
}

function setAll(gauge: Gauge<'status'>, counts: Map<string, number>): void {
  gauge.reset();
  for (const [status, count] of counts) gauge.set({ status }, count);
}

/** Milliseconds between the event loop's timer samples: a late one is a delay. */
const loopResolutionMs = 2;
const gcKinds: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/**
 * A gauge of the longest duration seen since the previous scrape, in seconds; the function
 * returned takes each duration, in ms.
 */
function longestSinceScrape(
  name: string,
  help: string,
  registers: Registry[],
): (ms: number) => void {
  let longest = 0;
  new Gauge({
    name,
    help,
    registers,
    collect() {
      this.set(longest / 1000);
      longest = 0;
    },
  });
  return (ms) => {
    longest = Math.max(longest, ms);
  };
}

/** The hub's Prometheus metrics, in a registry of its own (served at GET /metrics). */
export class HubMetrics {
  readonly registry = new Registry();
  readonly hookEvents: Counter<'event'>;
  readonly ingestSeconds: Histogram;
  /** What the hub's graphql-ws server reports of its writes to subscribers. */
  readonly fanout: FanoutObserver;
  readonly permissionDecisions: Counter<'outcome' | 'decided_by'>;
  /** Tokens of completed turns, by model and kind (input, output, cache_read, cache_write). */
  readonly tokens: Counter<'model' | 'type'>;
  /** What completed turns cost, by model, where it is known. */
  readonly costUsd: Counter<'model'>;
  readonly #periodic: Histogram<'task'>;
  readonly #gcObserver: PerformanceObserver;
  readonly #spawned: (ms: unknown) => void;
  readonly #loopDelay = new LoopDelay(loopResolutionMs);

  /** Counts a completed turn's tokens and cost, by model. */
  turnCosted(models: readonly ModelCost[]): void {
    for (const usage of models) {
      const { model } = usage;
      this.tokens.inc({ model, type: 'input' }, usage.input_tokens);
      this.tokens.inc({ model, type: 'output' }, usage.output_tokens);
      this.tokens.inc({ model, type: 'cache_read' }, usage.cache_read_input_tokens);
      this.tokens.inc({ model, type: 'cache_write' }, usage.cache_creation_input_tokens);
      if (usage.costUsd !== null) this.costUsd.inc({ model }, usage.costUsd);
    }
  }

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'claude_hub_' });
    const loopDelay = this.#loopDelay;
    new Gauge({
      name: 'claude_hub_event_loop_delay_seconds',
      help: `How late the event loop ran a ${loopResolutionMs} ms timer, over the time since the previous scrape: what any request waited for the loop. quantile="1" is the largest.`,
      labelNames: ['quantile'],
      registers,
      collect() {
        const late = (ns: number) => Math.max(0, ns / 1e6 - loopResolutionMs) / 1000;
        for (const q of [0.5, 0.9, 0.99]) {
          this.set({ quantile: String(q) }, late(loopDelay.percentile(q * 100)));
        }
        this.set({ quantile: '1' }, late(loopDelay.max));
        loopDelay.reset();
      },
    });
    const gcPauses = new Histogram({
      name: 'claude_hub_gc_pause_seconds',
      help: 'Garbage collection pauses of the main thread, by kind (every one: the default nodejs_gc_duration_seconds may miss some).',
      labelNames: ['kind'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers,
    });
    const gcPause = longestSinceScrape(
      'claude_hub_gc_pause_max_seconds',
      'The longest garbage collection pause since the previous scrape.',
      registers,
    );
    this.#gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
        const kind = gcKinds[detail?.kind ?? -1] ?? 'other';
        gcPauses.observe({ kind }, entry.duration / 1000);
        gcPause(entry.duration);
      }
    });
    this.#gcObserver.observe({ entryTypes: ['gc'] });
    this.#periodic = new Histogram({
      name: 'claude_hub_periodic_work_seconds',
      help: 'Work on a timer, from start to end: session_check (every 500 ms: which claude processes still run, the screens of starting sessions), pane_listing (tmux list-panes, after a launch, when a process is gone, and every minute), retention (every minute).',
      labelNames: ['task'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    const spawns = new Histogram({
      name: 'claude_hub_spawn_seconds',
      help: 'How long starting a subprocess (tmux, claude) held the event loop: node forks and waits until the child runs its program, longer when the machine has no core to spare.',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers,
    });
    const spawnHold = longestSinceScrape(
      'claude_hub_spawn_max_seconds',
      'The longest hold of the event loop by a subprocess start since the previous scrape.',
      registers,
    );
    this.#spawned = (ms) => {
      spawns.observe(Number(ms) / 1000);
      spawnHold(Number(ms));
    };
    spawnTimes.subscribe(this.#spawned);
    this.hookEvents = new Counter({
      name: 'claude_hub_hook_events_total',
      help: 'Hook events stored, by event name (names outside the registry count as "unknown").',
      labelNames: ['event'],
      registers,
    });
    this.ingestSeconds = new Histogram({
      name: 'claude_hub_hook_ingest_seconds',
      help: 'POST /hooks from request to answer, for events answered at once (not PermissionRequest).',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    const delivery = new Histogram({
      name: 'claude_hub_event_delivery_seconds',
      help: "From a live event's receipt to its message's write to a graphql-ws subscriber's socket, for the oldest message of each write: how long the hub held events, waiting for the store, a turn's fan-out budget or a client that is behind. Replayed events are not counted. Millisecond resolution.",
      buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    });
    const behind = new Histogram({
      name: 'claude_hub_subscriber_behind_seconds',
      help: "How long a graphql-ws connection waited, each time its client was behind (256 KB or more waiting to be sent on its socket, the kernel's buffers for it full), until the client caught up or left.",
      buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 1, 5, 30],
      registers,
    });
    this.fanout = {
      delivered: (seconds) => delivery.observe(seconds),
      waited: (seconds) => behind.observe(seconds),
    };
    this.permissionDecisions = new Counter({
      name: 'claude_hub_permission_decisions_total',
      help: 'Permission requests settled, by outcome (ALLOWED, DENIED, EXPIRED, ANSWERED_IN_TERMINAL...) and by who decided (rule, token, terminal, expiry, none).',
      labelNames: ['outcome', 'decided_by'],
      registers,
    });
    this.tokens = new Counter({
      name: 'claude_hub_tokens_total',
      help: 'Tokens of completed turns, by model and type (input, output, cache_read, cache_write).',
      labelNames: ['model', 'type'],
      registers,
    });
    this.costUsd = new Counter({
      name: 'claude_hub_cost_usd_total',
      help: "What completed turns cost in US dollars, by model: claude's own figure (HEADLESS) or the price table's; turns of unknown cost are not counted.",
      labelNames: ['model'],
      registers,
    });
    new Gauge({
      name: 'claude_hub_subscribers',
      help: 'Open subscriptions to session events (graphql-ws, SSE, plain SSE).',
      registers,
      collect() {
        this.set(sources.subscribers());
      },
    });
    new Counter({
      name: 'claude_hub_subscribers_cut_total',
      help: 'Subscriptions to session events cut for falling behind (SUBSCRIBER_TOO_SLOW); each may resume with after.',
      registers,
      collect() {
        this.reset();
        this.inc(sources.subscribersCut());
      },
    });
    new Gauge({
      name: 'claude_hub_sessions',
      help: 'Sessions by status.',
      labelNames: ['status'],
      registers,
      collect() {
        setAll(this, sources.sessionsByStatus());
      },
    });
    new Gauge({
      name: 'claude_hub_messages',
      help: 'Messages by status.',
      labelNames: ['status'],
      registers,
      collect() {
        setAll(this, sources.messagesByStatus());
      },
    });
    new Counter({
      name: 'claude_hub_session_restarts_total',
      help: 'Automatic restarts of crashed sessions.',
      registers,
      collect() {
        this.reset();
        this.inc(sources.restarts());
      },
    });
  }

  /** Times one run of a periodic task. */
  readonly timed: Timed = async (task, work) => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.#periodic.observe({ task }, (performance.now() - started) / 1000);
    }
  };

  /** Stops the samplers (the event loop's timer, the GC observer, the subprocess starts). */
  close(): void {
    this.#loopDelay.stop();
    this.#gcObserver.disconnect();
    spawnTimes.unsubscribe(this.#spawned);
  }

  /** Counts a stored hook event, with a label from the registry's names only. */
  countHookEvent(name: string): void {
    this.hookEvents.inc({ event: Object.hasOwn(hookEvents, name) ? name : 'unknown' });
  }
}

/** How many items there are of each key: a gauge's values by label. */
export function countBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { hookEvents } from './events/registry.js';

/** What the metrics read at scrape time. */
export interface MetricsSources {
  readonly sessionsByStatus: () => Map<string, number>;
  readonly messagesByStatus: () => Map<string, number>;
  /** Restarts of crashed sessions so far, summed over sessions (it only grows). */
  readonly restarts: () => number;
  readonly subscribers: () => number;
}

function setAll(gauge: Gauge<'status'>, counts: Map<string, number>): void {
  gauge.reset();
  for (const [status, count] of counts) gauge.set({ status }, count);
}

/** The hub's Prometheus metrics, in a registry of its own (served at GET /metrics). */
export class HubMetrics {
  readonly registry = new Registry();
  readonly hookEvents: Counter<'event'>;
  readonly ingestSeconds: Histogram;
  readonly permissionDecisions: Counter<'outcome'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'claude_hub_' });
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
    this.permissionDecisions = new Counter({
      name: 'claude_hub_permission_decisions_total',
      help: 'Permission requests settled, by outcome (ALLOWED, DENIED, EXPIRED, ANSWERED_IN_TERMINAL...).',
      labelNames: ['outcome'],
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

  /** Counts a stored hook event, with a label from the registry's names only. */
  countHookEvent(name: string): void {
    this.hookEvents.inc({ event: Object.hasOwn(hookEvents, name) ? name : 'unknown' });
  }
}

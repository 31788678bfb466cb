/** The fan-out subscribers (bench/subscribers.ts) seen from the main thread. */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { SlowReport, SubscribersMessage, SubscribersOptions } from './subscribers.js';

/** The subscribers' thread: TypeScript, so tsx is registered there first. */
const subscribersThread = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => register())
  .then(() => import(${JSON.stringify(import.meta.resolve('./subscribers.ts'))}));`;

/**
 * When each event was sent, by its tag, on the clock all threads share (timeOrigin + now). The
 * times go to the subscribers' threads once per turn, and they match each arrival there: with
 * 100 subscribers at thousands of events a second, receiving every arrival here cost the
 * thread that offers the load most of a core, and its hook answers read as late.
 */
export class SentTimes {
  readonly #workers = new Set<Worker>();
  #tags: string[] = [];
  #times: number[] = [];

  set(tag: string, at: number): void {
    if (this.#tags.length === 0) setImmediate(() => this.flush());
    this.#tags.push(tag);
    this.#times.push(at);
  }

  /** Sends the times noted since the last flush to every subscribers' thread. */
  flush(): void {
    if (this.#tags.length === 0) return;
    const sent = { tags: this.#tags, times: Float64Array.from(this.#times) };
    for (const worker of this.#workers) worker.postMessage({ sent });
    [this.#tags, this.#times] = [[], []];
  }

  /** The times noted from now on go to `worker` too, until it is let go. */
  add(worker: Worker): () => void {
    this.flush();
    this.#workers.add(worker);
    return () => this.#workers.delete(worker);
  }
}

export interface Subscribers {
  /** Each event's delay from its time in `sent`, as it arrives. */
  readonly arrivals: number[];
  /** Subscribers the hub has cut (SUBSCRIBER_TOO_SLOW), the slow one left out. */
  readonly cut: () => number;
  /** The slow subscriber's state, with `slow`. */
  readonly slow: () => SlowReport | null;
  /** Makes the slow subscriber stop reading until `resumeSlow`. */
  pauseSlow(): void;
  resumeSlow(): void;
  stop(): Promise<void>;
}

/** Waits until `arrived` says so, or 10 s have passed (the row then says what arrived). */
export async function untilArrived(arrived: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!arrived() && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Starts subscribers on their own thread and resolves once all are connected; `arrivals` fills
 * with each event's delay from its time in `sent`.
 */
export async function startSubscribers(
  options: SubscribersOptions,
  sent: SentTimes,
): Promise<Subscribers> {
  const worker = new Worker(subscribersThread, { eval: true, workerData: options });
  const leave = sent.add(worker);
  const arrivals: number[] = [];
  let cut = 0;
  let slow: SlowReport | null = null;
  let connected: () => void = () => {};
  const allConnected = new Promise<void>((resolve) => (connected = resolve));
  const stopped = new Promise<void>((resolve) => {
    worker.on('message', (message: SubscribersMessage) => {
      if (message === 'connected') return connected();
      if (message === 'stopped') return resolve();
      if ('cut' in message) return void (cut += 1);
      if ('slow' in message) return void (slow = message.slow);
      for (const delay of message.delays) arrivals.push(delay);
    });
  });
  await allConnected;
  const stop = async () => {
    sent.flush();
    leave();
    worker.postMessage('stop');
    await stopped;
    await worker.terminate();
  };
  return {
    arrivals,
    cut: () => cut,
    slow: () => slow,
    pauseSlow: () => worker.postMessage('pause'),
    resumeSlow: () => worker.postMessage('resume'),
    stop,
  };
}

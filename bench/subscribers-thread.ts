/** The fan-out subscribers (bench/subscribers.ts) seen from the main thread. */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Arrivals, SubscribersOptions } from './subscribers.js';

/** The subscribers' thread: TypeScript, so tsx is registered there first. */
const subscribersThread = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => register())
  .then(() => import(${JSON.stringify(import.meta.resolve('./subscribers.ts'))}));`;

export interface Subscribers {
  /** Each event's delay from its time in `sent`, as it arrives. */
  readonly arrivals: number[];
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
  sent: Map<string, number>,
): Promise<Subscribers> {
  const worker = new Worker(subscribersThread, { eval: true, workerData: options });
  const arrivals: number[] = [];
  let connected: () => void = () => {};
  const allConnected = new Promise<void>((resolve) => (connected = resolve));
  const stopped = new Promise<void>((resolve) => {
    worker.on('message', (message: Arrivals | 'connected' | 'stopped') => {
      if (message === 'connected') return connected();
      if (message === 'stopped') return resolve();
      for (const [tag, at] of message) {
        const sentAt = sent.get(tag);
        if (sentAt !== undefined) arrivals.push(at - sentAt);
      }
    });
  });
  await allConnected;
  const stop = async () => {
    worker.postMessage('stop');
    await stopped;
    await worker.terminate();
  };
  return { arrivals, stop };
}

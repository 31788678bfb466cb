import { LiveQueue } from './live-queue.js';

export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/** Opens an SSE stream with fetch and queues every message; abort() closes it. */
export function openSse(
  url: string,
  init: RequestInit = {},
): LiveQueue<SseMessage> & { abort(): void; status: Promise<number> } {
  const queue = new LiveQueue<SseMessage>() as LiveQueue<SseMessage> & {
    abort(): void;
    status: Promise<number>;
  };
  const controller = new AbortController();
  queue.abort = () => controller.abort();
  queue.onDispose(() => controller.abort());
  queue.status = (async () => {
    const response = await fetch(url, { ...init, signal: controller.signal });
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const message: { event: string; data: string[]; id?: string } = {
              event: 'message',
              data: [],
            };
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'event') message.event = value;
              else if (field === 'data') message.data.push(value);
              else if (field === 'id') message.id = value;
            }
            if (message.data.length > 0 || message.event !== 'message') {
              queue.push({
                event: message.event,
                data: message.data.join('\n'),
                ...(message.id ? { id: message.id } : {}),
              });
            }
          }
        }
        queue.complete();
      } catch (error) {
        if (!controller.signal.aborted) queue.fail(error as Error);
      }
    })();
    return response.status;
  })();
  return queue;
}

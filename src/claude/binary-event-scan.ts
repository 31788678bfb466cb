import { Worker } from 'node:worker_threads';

/** The text every list of hook events in claude's bundle starts with. */
export const eventArrayStart = '["PreToolUse","PostToolUse",';

export interface ScanOptions {
  /** Bytes read at a time; the worker holds about two of them. */
  readonly chunkBytes: number;
  /** An array longer than this many bytes is not taken (34 events are about 550). */
  readonly maxArrayBytes: number;
  /** Arrays collected at most; claude 2.1.328 holds 9 that start so. */
  readonly maxArrays: number;
  readonly signal?: AbortSignal;
}

/**
 * Reads a file in chunks and sends back each `["PreToolUse","PostToolUse",...]` text in it, up
 * to its `]`, including one that straddles two chunks. Plain CommonJS, evaluated by the
 * worker, so it runs the same from the compiled hub and from the TypeScript sources.
 */
const scanScript = `
const { parentPort, workerData } = require('node:worker_threads');
const { createReadStream } = require('node:fs');
const { file, start, chunkBytes, maxArrayBytes, maxArrays } = workerData;
const needle = Buffer.from(start);
const close = 0x5d; // ]
const found = [];
let carry = Buffer.alloc(0);
const stream = createReadStream(file, { highWaterMark: chunkBytes });
stream.on('data', (chunk) => {
  const buffer = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
  // Where the next chunk must start reading from: an unfinished array, or the needle's prefix.
  let keepFrom = Math.max(0, buffer.length - needle.length + 1);
  for (let at = buffer.indexOf(needle); at !== -1; at = buffer.indexOf(needle, at + 1)) {
    const end = buffer.indexOf(close, at + needle.length);
    if (end === -1 || end - at >= maxArrayBytes) {
      if (end === -1 && buffer.length - at < maxArrayBytes) keepFrom = Math.min(keepFrom, at);
      continue;
    }
    found.push(buffer.toString('latin1', at, end + 1));
    if (found.length >= maxArrays) {
      stream.destroy();
      parentPort.postMessage({ found });
      return;
    }
  }
  carry = Buffer.from(buffer.subarray(keepFrom));
});
stream.on('error', (error) => parentPort.postMessage({ error: error.message }));
stream.on('end', () => parentPort.postMessage({ found }));
`;

/**
 * The candidate hook-event arrays of a claude binary (a native build is ~400 MB): streamed in
 * a worker thread, so the hub's event loop never waits on it and no more than a few chunks are
 * in memory at once. Rejects when the file cannot be read or `signal` aborts.
 */
export function scanForEventArrays(file: string, options: ScanOptions): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new Error('stopped'));
    const worker = new Worker(scanScript, {
      eval: true,
      workerData: {
        file,
        start: eventArrayStart,
        chunkBytes: options.chunkBytes,
        maxArrayBytes: options.maxArrayBytes,
        maxArrays: options.maxArrays,
      },
    });
    const stop = () => {
      void worker.terminate();
      reject(new Error('stopped'));
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    const settle = (done: () => void) => {
      options.signal?.removeEventListener('abort', stop);
      void worker.terminate();
      done();
    };
    worker.once('message', (message: { found?: string[]; error?: string }) =>
      settle(() =>
        message.error === undefined
          ? resolve(message.found ?? [])
          : reject(new Error(`${file} could not be read: ${message.error}`)),
      ),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', () => settle(() => reject(new Error('the scan ended without a result'))));
  });
}

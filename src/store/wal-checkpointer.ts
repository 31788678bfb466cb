import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Milliseconds between checkpoints. */
const checkpointEveryMs = 200;
/**
 * WAL frames (4 KB pages) past which the writer checkpoints in its commits again. Under
 * sustained load the WAL is never entirely copied while it is written, so SQLite never restarts
 * it; the writer's own checkpoint, between two commits, copies it all, and the next commit
 * starts the file over. Back to this thread alone below a quarter of the bound.
 */
const laggingFrames = 8_192;

/**
 * The checkpointing thread: its own connection to the file, a PASSIVE checkpoint on a timer,
 * and a message to the writer when the WAL grows past the bound or is back under it.
 * Plain CommonJS, so it runs the same from the compiled hub and from the TypeScript sources.
 */
const source = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let lagging = false;
setInterval(() => {
  try {
    const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)');
    if (lagging ? log < workerData.laggingFrames / 4 : log > workerData.laggingFrames) {
      lagging = !lagging;
      parentPort.postMessage(lagging);
    }
  } catch {
    // Busy or closing: the next turn tries again.
  }
}, workerData.everyMs);
`;

/**
 * Copies the WAL into the database file on another thread, so no hook event's commit waits for
 * a checkpoint (SQLite's automatic checkpoint runs inside the commit that crosses 1,000 pages,
 * copying and syncing megabytes on the event loop). PASSIVE never blocks the writer.
 * `onCommit(true)` asks the writer to checkpoint in its commits again: when the WAL outgrows
 * its bound, and for good if the thread fails. Returns the stop function.
 */
export function checkpointOffThread(
  file: string,
  onCommit: (checkpoint: boolean) => void,
): () => Promise<unknown> {
  const worker = new Worker(source, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      everyMs: checkpointEveryMs,
      laggingFrames,
    },
    // The thread holds one connection and a timer; its heap stays small.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
  });
  worker.on('message', (lagging: boolean) => onCommit(lagging));
  worker.once('error', () => onCommit(true));
  // After the listeners, which would hold the process open again.
  worker.unref();
  return () => worker.terminate();
}

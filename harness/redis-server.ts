import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { freePort } from './free-port.js';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Kills the server at once (SIGKILL): everything in it is lost. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A real redis-server on loopback, on a free port, keeping nothing on disk. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'cch-redis-'));
  let child: ResultPromise | null = null;
  const start = async () => {
    const server = execa(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { reject: false },
    );
    child = server;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      server.once('exit', () => reject(new Error(`redis-server exited: ${out}`)));
    });
  };
  const kill = async () => {
    child?.kill('SIGKILL');
    await child;
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { buildApp } from './app.js';
import { parseConfig, usage } from '../config/index.js';
import { createLogger } from '../log.js';
import { DataDirRefusal } from '../store/database.js';

/** `serve` (what `npm start` runs): parse options, start the hub, print the one ready line, stop on a signal. */
export async function serve(argv: readonly string[]): Promise<void> {
  const parsed = parseConfig(argv, process.env);
  if (!parsed.ok) {
    if (parsed.help) {
      process.stdout.write(usage());
      process.exit(0);
    }
    process.stderr.write(`claude-code-hub: ${parsed.error}\n`);
    process.exit(2);
  }
  const log = createLogger(parsed.config.logLevel);
  let app;
  let url;
  try {
    app = buildApp(parsed.config, { logger: log });
    ({ url } = await app.start());
  } catch (error) {
    process.stderr.write(`claude-code-hub: ${(error as Error).message}\n`);
    process.exit(error instanceof DataDirRefusal ? 2 : 1);
  }
  process.stdout.write(`claude-code-hub listening on ${url}\n`);
  log.info({ url }, 'listening');
  if (!parsed.config.token && !parsed.config.tokensFile) {
    log.warn('no tokens configured: loopback only, and every local client has the admin scope');
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    app.stop().then(
      () => {
        log.flush();
        process.exit(0);
      },
      (error: unknown) => {
        log.fatal({ err: error }, 'shutdown failed');
        log.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

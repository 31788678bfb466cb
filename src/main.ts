import { buildApp } from './app.js';
import { parseConfig, usage } from './config.js';

/** `npm start`: parse options, start the hub, print the one ready line, stop on a signal. */
async function main(): Promise<void> {
  const parsed = parseConfig(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    if (parsed.help) {
      process.stdout.write(usage());
      process.exit(0);
    }
    process.stderr.write(`claude-code-hub: ${parsed.error}\n`);
    process.exit(2);
  }
  let app;
  let url;
  try {
    app = buildApp(parsed.config);
    ({ url } = await app.start());
  } catch (error) {
    process.stderr.write(`claude-code-hub: ${(error as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`claude-code-hub listening on ${url}\n`);
  if (!parsed.config.token && !parsed.config.tokensFile) {
    process.stderr.write(
      'claude-code-hub: no tokens configured: loopback only, and every local client has the admin scope\n',
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`claude-code-hub: ${signal}, shutting down\n`);
    app.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`claude-code-hub: shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();

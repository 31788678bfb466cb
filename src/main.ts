#!/usr/bin/env -S node --max-semi-space-size=8
// A young generation of 8 MB per semi-space, not V8's 16: 16-18 MB less resident memory after a
// large ingest, with no more time in the garbage collector under load. `npm start` and the
// tests' and bench's launcher (harness/hub-process.ts) pass the same flag.
import { ExitCode, findCommand, runCommand, unknownCommand } from './cli/commands.js';

/**
 * The `claude-code-hub` command: `serve` (the default when only options are given) runs the
 * hub; the other commands are clients of a running hub. The hub's modules load only for
 * `serve`, so client commands start fast.
 */
const serve = async (argv: readonly string[]) => (await import('./server/serve.js')).serve(argv);

const argv = process.argv.slice(2);
const [command, ...rest] = argv;
const found = findCommand(argv);
if (command === 'serve') {
  void serve(rest);
} else if (command === undefined || command.startsWith('-')) {
  void serve(argv);
} else if (found) {
  void runCommand(found.name, found.rest, process.env, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
    interrupted: () => {
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop).once('SIGTERM', stop);
      return controller.signal;
    },
  }).then((code) => {
    process.exitCode = code;
  });
} else {
  const { usage } = await import('./config/index.js');
  process.stderr.write(`${unknownCommand(argv)}\n\n${usage()}`);
  process.exitCode = ExitCode.Usage;
}

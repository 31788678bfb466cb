#!/usr/bin/env -S node --max-semi-space-size=2
// A young generation of 2 MB per semi-space, not V8's 16: less resident memory and shorter
// collections with hook payloads of tens of KB. `npm start` passes the same flag.
import { commands, ExitCode, runCommand } from './cli/commands.js';

/**
 * The `claude-code-hub` command: `serve` (the default when only options are given) runs the
 * hub; the other commands are clients of a running hub. The hub's modules load only for
 * `serve`, so client commands start fast.
 */
const serve = async (argv: readonly string[]) => (await import('./serve.js')).serve(argv);

const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') {
  void serve(rest);
} else if (command === undefined || command.startsWith('-')) {
  void serve(process.argv.slice(2));
} else if (Object.hasOwn(commands, command)) {
  void runCommand(command, rest, process.env, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
  }).then((code) => {
    process.exitCode = code;
  });
} else {
  const { usage } = await import('./config.js');
  process.stderr.write(`claude-code-hub: unknown command "${command}"\n\n${usage()}`);
  process.exitCode = ExitCode.Usage;
}

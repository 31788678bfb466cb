import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, HubError } from '../errors.js';
import { timedSpawn } from '../spawn-time.js';
import { claudeCommand, headlessArgs } from './claude-command.js';
import { headlessContent, type InputMode } from './prompt-input.js';
import type {
  Exit,
  LaunchSpec,
  Presence,
  RuntimeSession,
  ScreenState,
  SessionRuntime,
} from './session-runtime.js';

/** What claude's stderr keeps for a crash's error. */
const stderrKept = 4096;

/** A line claude printed: its text, and the JSON value it holds (undefined when not JSON). */
export interface StreamLine {
  readonly text: string;
  readonly message: unknown;
  /** A `result` line of a turn the hub had asked claude to interrupt. */
  readonly interrupted?: boolean;
}

export interface HeadlessRuntimeOptions {
  /** Each line claude printed on stdout, in order (hook events arrive over HTTP as ever). */
  readonly output: (sessionId: string, line: StreamLine) => void;
  /** How long claude may take to end after its stdin closes, before it is signalled. */
  readonly stopTimeoutMs: number;
}

/** One headless claude, and what the runtime knows of it. */
interface Headless {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Text typed and not yet submitted: the headless input box. */
  draft: string;
  /** What the draft is for. */
  draftMode: InputMode;
  /** A user line was written and its result has not come. */
  busy: boolean;
  /** An interrupt was asked for since the last result. */
  interrupting: boolean;
  /** Set when the process exited. */
  exit: string | null;
  stderr: string;
  /** Called on each `result` line: the turn is over. */
  readonly resultWaiters: Set<() => void>;
}

const jsonLine = (message: unknown) => `${JSON.stringify(message)}\n`;

/** A line as claude printed it, with the JSON it holds. */
export function parseStreamLine(text: string): StreamLine {
  try {
    return { text, message: JSON.parse(text) };
  } catch {
    return { text, message: undefined };
  }
}

/** The turn is over (its result came, or claude exited): whoever waits for it goes on. */
function turnOver(headless: Headless): void {
  headless.busy = false;
  headless.interrupting = false;
  for (const resolve of headless.resultWaiters) resolve();
  headless.resultWaiters.clear();
}

/** A string field of a stream message, or null. */
export function fieldOf(message: unknown, name: string): string | null {
  const value = typeof message === 'object' && message ? Reflect.get(message, name) : null;
  return typeof value === 'string' ? value : null;
}

/**
 * claude without a terminal: one long-lived `claude -p` per session over stream-json pipes, for
 * machines without tmux. Each prompt is one user line on its stdin; every line it prints goes
 * to `output`. It lives as long as the hub's process: a hub that starts again finds it gone,
 * and the lifecycle resumes the conversation with --resume.
 */
export class HeadlessRuntime implements SessionRuntime {
  /** A headless claude has no keys to press: sendKeys refuses it before asking. */
  readonly keyNames: readonly string[] = [];
  readonly #options: HeadlessRuntimeOptions;
  readonly #running = new Map<string, Headless>();

  constructor(options: HeadlessRuntimeOptions) {
    this.#options = options;
  }

  async launch({ record, env, claude }: LaunchSpec): Promise<void> {
    await this.stop(record);
    const [bin, ...args] = claudeCommand(claude);
    const child = timedSpawn(() =>
      spawn(bin!, [...args, ...headlessArgs], {
        cwd: record.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const headless: Headless = {
      child,
      draft: '',
      draftMode: 'prompt',
      busy: false,
      interrupting: false,
      exit: null,
      stderr: '',
      resultWaiters: new Set(),
    };
    this.#running.set(record.id, headless);
    child.stdin.on('error', () => undefined); // a write after claude exited: its exit says why
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      headless.stderr = (headless.stderr + chunk).slice(-stderrKept);
    });
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (text) => {
      const line = parseStreamLine(text);
      if (fieldOf(line.message, 'type') !== 'result') return this.#options.output(record.id, line);
      this.#options.output(record.id, { ...line, interrupted: headless.interrupting });
      turnOver(headless);
    });
    child.on('exit', (code, signal) => {
      headless.exit = code !== null ? ` with status ${code}` : ` on signal ${signal}`;
      turnOver(headless);
    });
    await Promise.race([
      once(child, 'spawn'),
      once(child, 'error').then(([error]) => {
        this.#running.delete(record.id);
        throw error as Error;
      }),
    ]);
  }

  /** Nothing outlives the hub's process: after a restart every headless session resumes. */
  async presence(records: readonly RuntimeSession[]): Promise<Map<string, Presence>> {
    return new Map(
      records.map((record) => [
        record.id,
        this.#running.has(record.id) ? { kind: 'running' } : { kind: 'resumable' },
      ]),
    );
  }

  async exits<S extends RuntimeSession>(records: readonly S[]): Promise<Exit<S>[]> {
    const exits: Exit<S>[] = [];
    for (const record of records) {
      const headless = this.#running.get(record.id);
      if (headless && headless.exit === null) continue;
      this.#running.delete(record.id);
      exits.push({
        record,
        how: headless?.exit ?? ' while the hub was down',
        screen: headless?.stderr.trim() ?? '',
      });
    }
    return exits;
  }

  async screen(): Promise<string> {
    return '';
  }

  async look(record: RuntimeSession): Promise<ScreenState> {
    const headless = this.#running.get(record.id);
    return {
      dialog: null,
      inputText: headless && headless.exit === null ? headless.draft : null,
      turnRunning: headless?.busy ?? false,
    };
  }

  /** No terminal: nobody types into a headless session but the hub. */
  async lastTyped(): Promise<null> {
    return null;
  }

  async waitForInput(record: RuntimeSession): Promise<void> {
    this.#require(record);
  }

  async type(record: RuntimeSession, text: string, mode: InputMode): Promise<void> {
    if (mode === 'shell') {
      throw new HubError(ErrorCode.NoTerminal, 'a HEADLESS session has no shell mode');
    }
    const headless = this.#require(record);
    headless.draft += text;
    headless.draftMode = mode;
  }

  /** Enter submits what was typed as one user line; C-c interrupts. */
  async keys(record: RuntimeSession, names: readonly string[]): Promise<void> {
    const headless = this.#require(record);
    for (const name of names) {
      if (name === 'C-c') {
        this.#interruptRequest(headless);
      } else if (name === 'Enter') {
        const draft = headless.draft;
        const content = headless.draftMode === 'prompt' ? headlessContent(draft) : draft;
        headless.draft = '';
        headless.busy = true;
        headless.child.stdin.write(jsonLine({ type: 'user', message: { role: 'user', content } }));
      } else {
        throw new HubError(ErrorCode.KeyNotAllowed, 'a HEADLESS session has no terminal keys');
      }
    }
  }

  async interrupt(record: RuntimeSession, timeoutMs: number): Promise<boolean> {
    const headless = this.#running.get(record.id);
    if (!headless || headless.exit !== null) return false;
    if (!headless.busy) return true;
    const over = new Promise<void>((resolve) => headless.resultWaiters.add(resolve));
    this.#interruptRequest(headless);
    return Promise.race([over.then(() => true), sleep(timeoutMs, false, { ref: false })]);
  }

  /** Closes claude's stdin, which ends it; signals it when it does not end in time. */
  async stop(record: RuntimeSession): Promise<void> {
    const headless = this.#running.get(record.id);
    if (!headless) return;
    const { child } = headless;
    if (headless.exit === null) {
      const exited = once(child, 'exit');
      child.stdin.end();
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        const ended = await Promise.race([
          exited.then(() => true),
          sleep(this.#options.stopTimeoutMs, false, { ref: false }),
        ]);
        if (ended) break;
        child.kill(signal);
      }
    }
    this.#running.delete(record.id);
  }

  /** A headless session has nothing to attach to. */
  pane(record: RuntimeSession): never {
    throw noTerminal(record);
  }

  attachCommand(): null {
    return null;
  }

  #require(record: RuntimeSession): Headless {
    const headless = this.#running.get(record.id);
    if (!headless || headless.exit !== null) {
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `session ${record.id}'s claude is not running`,
      );
    }
    return headless;
  }

  #interruptRequest(headless: Headless): void {
    headless.interrupting = headless.busy;
    headless.child.stdin.write(
      jsonLine({
        type: 'control_request',
        request_id: `interrupt-${Date.now()}`,
        request: { subtype: 'interrupt' },
      }),
    );
  }
}

function noTerminal(record: RuntimeSession): HubError {
  return new HubError(
    ErrorCode.NoTerminal,
    `session ${record.id} runs HEADLESS: it has no terminal`,
  );
}

import { execa } from 'execa';
import { timedSpawn } from '../spawn-time.js';

/** How long one git command may take before it is killed. */
export const gitTimeoutMs = 30_000;

/**
 * What goes before every command: no file system monitor the repository's configuration names
 * (`core.fsmonitor` may name a program, which `add`, `write-tree` and `diff` would run).
 */
const ownOptions: readonly string[] = ['-c', 'core.fsmonitor=false'];

/** What one git command did. */
export interface GitResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout passed `maxOutput` and was cut there (git was stopped). */
  readonly cut?: boolean;
}

/** What one git command gets beyond its arguments. */
export interface GitExtra {
  /** Added to its environment: the hub's own values (a temporary GIT_INDEX_FILE), never a client's. */
  readonly env?: Readonly<Record<string, string>>;
  /** Its stdin (a commit message for `-F -`); closed when absent. */
  readonly input?: string;
  /** The most stdout kept, in characters: git is stopped there, and the result says `cut`. */
  readonly maxOutput?: number;
}

/** Runs git with these arguments in a folder; a start that fails rejects, an exit code does not. */
export type GitRun = (args: readonly string[], cwd: string, extra?: GitExtra) => Promise<GitResult>;

/**
 * The environment git runs with: the one given (the hub's, less its secrets) less every `GIT_*`
 * variable, which would point git at another repository, index or work tree (`GIT_DIR`,
 * `GIT_WORK_TREE`, `GIT_INDEX_FILE`), add configuration (`GIT_CONFIG_*`) or run programs
 * (`GIT_SSH_COMMAND`, `GIT_EXTERNAL_DIFF`); never a prompt, and messages in English. Pure.
 */
export function gitEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name.toUpperCase().startsWith('GIT_')) continue;
    result[name] = value;
  }
  return { ...result, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

/**
 * git through execa, with an argument array (no shell ever sees a value), stdin closed, only
 * `env` as its environment, no file system monitor, and a time limit.
 */
export function gitRunner(env: Readonly<Record<string, string>>): GitRun {
  return async (args, cwd, extra = {}) => {
    const result = await timedSpawn(() =>
      execa('git', [...ownOptions, ...args], {
        cwd,
        env: { ...env, ...extra.env },
        extendEnv: false,
        ...(extra.input === undefined ? { stdin: 'ignore' as const } : { input: extra.input }),
        reject: false,
        timeout: gitTimeoutMs,
        stripFinalNewline: true,
        ...(extra.maxOutput !== undefined && { maxBuffer: { stdout: extra.maxOutput } }),
      }),
    );
    if (result.isMaxBuffer) {
      return { exitCode: 0, stdout: result.stdout, stderr: result.stderr, cut: true };
    }
    if (result.exitCode === undefined) {
      // It never started (no git, no such folder), or it was killed at its time limit.
      throw new Error(`git ${args[0] ?? ''} could not run: ${result.message}`, { cause: result });
    }
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  };
}

/** git's first line of complaint, for a message. */
export function gitComplaint(result: GitResult): string {
  const line = result.stderr.split('\n').find((text) => text.trim() !== '') ?? '';
  return line.replace(/^(fatal|error): /, '').slice(0, 300) || `exit code ${result.exitCode}`;
}

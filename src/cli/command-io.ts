/** Exit codes of the client commands. */
export const ExitCode = { Ok: 0, Failed: 1, Usage: 2, AskTimeout: 3, AskFailed: 4 } as const;

/** What a command reads and writes: the bin's streams, or a test's. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly colour: boolean;
  /**
   * A signal aborted by SIGINT or SIGTERM. Asking for it makes those signals end the command
   * (which then exits as usual) instead of killing the process.
   */
  readonly interrupted: () => AbortSignal;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A bad argument: the command prints its message and usage, and exits with ExitCode.Usage. */
export class UsageError extends Error {}

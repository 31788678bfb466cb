import type { InputMode } from './prompt-input.js';
import type { ClaudeCommandOptions } from './claude-command.js';
import type { Pane, PaneAddress } from './tmux-pane.js';

/** What a session's claude is, seen by the runtime that ran it, when the hub starts. */
export type Presence =
  /** It runs, and it is this session's claude. */
  | { readonly kind: 'running' }
  /** Something else runs where it ran; `detail` says what. */
  | { readonly kind: 'foreign'; readonly detail: string }
  /** Nothing runs for it any more. */
  | { readonly kind: 'gone' }
  /** It ended with the hub that held it, and goes on with --resume. */
  | { readonly kind: 'resumable' };

/** What claude shows, for the facts hooks do not give: dialogs, the input box, a running turn. */
export interface ScreenState {
  /** The startup dialog claude waits on (WORKSPACE_TRUST, API_KEY), if any. */
  readonly dialog: string | null;
  /** The input box's text; null when no input box is drawn. */
  readonly inputText: string | null;
  /** The footer offers to interrupt a running turn. */
  readonly turnRunning: boolean;
}

/** How a session's claude runs: in a tmux pane, or headless over stream-json pipes. */
export const RuntimeKind = { Tmux: 'TMUX', Headless: 'HEADLESS' } as const;
export type RuntimeKind = (typeof RuntimeKind)[keyof typeof RuntimeKind];

/** Who started a session's claude: the hub, or a person (reported by the global hooks). */
export const SessionOrigin = { Managed: 'MANAGED', External: 'EXTERNAL' } as const;
export type SessionOrigin = (typeof SessionOrigin)[keyof typeof SessionOrigin];

/** A session as a runtime reads it (the lifecycle's record; the runtime never writes it). */
export interface RuntimeSession {
  readonly id: string;
  readonly cwd: string;
  readonly runtime: RuntimeKind;
  /** The tmux session that holds its claude, for runtimes that run it in tmux. */
  readonly tmuxSession: string;
  /** claude's own session id (`--session-id`, `--resume`). */
  readonly claudeSessionId: string;
  readonly origin: SessionOrigin;
  /** An EXTERNAL session's pane on its own tmux server; null outside tmux (and for MANAGED). */
  readonly pane: PaneAddress | null;
  /** claude's process, once known. */
  readonly pid: number | null;
  /** A SessionEnd that ends the session arrived. */
  readonly ended: boolean;
}

export interface LaunchSpec {
  readonly record: RuntimeSession;
  /** The environment claude starts with; it carries secrets, so never on a command line. */
  readonly env: Readonly<Record<string, string>>;
  readonly claude: ClaudeCommandOptions;
  /** Replaces the claude running for the session, where a person watching it stays. */
  readonly inPlace: boolean;
}

/** A session whose claude process is gone, and what the runtime saw of its end. */
export interface Exit<S extends RuntimeSession = RuntimeSession> {
  readonly record: S;
  /** How it ended (` with status 1`, ` on signal 9`), or empty when unknown. */
  readonly how: string;
  /** The last thing it showed, for the session's error; empty when nothing. */
  readonly screen: string;
}

/**
 * A way to run claude for a session: launch, type, keys, screen, stop and liveness. The
 * lifecycle above it (SessionManager: status, restarts, waits, hook routing, the message queue)
 * is the same for every runtime.
 */
export interface SessionRuntime {
  /** The names sendKeys accepts, as clients send them. */
  readonly keyNames: readonly string[];
  /** Starts claude for the session; throws when it could not be started at all. */
  launch(spec: LaunchSpec): Promise<void>;
  /** At hub start: whether each session's claude still runs. */
  presence(records: readonly RuntimeSession[]): Promise<Map<string, Presence>>;
  /**
   * The sessions among `records` whose claude has exited, noticed as cheaply as the runtime
   * can; what is left of an exited one is cleared. Called on every poll tick.
   */
  exits<S extends RuntimeSession>(records: readonly S[]): Promise<Exit<S>[]>;
  /** The visible text of the session's terminal; empty when it has none. */
  screen(record: RuntimeSession): Promise<string>;
  look(record: RuntimeSession): Promise<ScreenState>;
  /** When a person last typed in the session's terminal (ms since the epoch); null if never. */
  lastTyped(record: RuntimeSession): Promise<number | null>;
  /**
   * Resolves once claude can take typing, or throws when it never could: within `timeoutMs`,
   * and while `running()` (the lifecycle has not seen the session end).
   */
  waitForInput(record: RuntimeSession, timeoutMs: number, running: () => boolean): Promise<void>;
  /**
   * Types text into the input box for `mode` (Enter is a key of its own); resolves once an
   * Enter pressed next submits all of it. A `prompt` reaches the model as text whatever its first
   * character; `command` and `shell` are for claude to act on.
   */
  type(record: RuntimeSession, text: string, mode: InputMode): Promise<void>;
  /** Presses keys by the names of keyNames, plus `Enter`, `C-c` for the hub's own use. */
  keys(record: RuntimeSession, names: readonly string[]): Promise<void>;
  /**
   * Stops the running turn as a person would; resolves with whether it stopped within
   * `timeoutMs` (claude fires no hook for it).
   */
  interrupt(record: RuntimeSession, timeoutMs: number): Promise<boolean>;
  /** Ends claude and whatever holds it. */
  stop(record: RuntimeSession): Promise<void>;
  /** The shell command a person runs to watch or take over the session; null without one. */
  attachCommand(record: RuntimeSession): string | null;
  /**
   * The tmux pane claude draws in, for watching its terminal and typing into it byte for byte;
   * throws NO_TERMINAL (HEADLESS) or NOT_IN_TMUX (a claude started by hand outside tmux).
   */
  pane(record: RuntimeSession): Pane;
}

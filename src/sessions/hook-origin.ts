import type { StoredEvent } from '../events/hook-event.js';
import type { HubError } from '../errors.js';

export type IngestResult =
  | {
      readonly ok: true;
      /** Null for a call the hub drops: its own session's, through the global hooks. */
      readonly event: StoredEvent | null;
      /** The hook answer: `{}` at once, or a PermissionRequest's decision when it comes. */
      readonly answer: Promise<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly error: HubError };

/**
 * Where a hook call comes from, as its headers say: the forwarder and the installed global hooks
 * send the claude's tmux server, pane and process, and the hub session of a claude the hub
 * started (so the hub knows its own sessions' calls through the global hooks).
 */
export interface HookOrigin {
  /** `$TMUX`: `<socket path>,<server pid>,<session index>`. */
  readonly tmux: string | null;
  /** `$TMUX_PANE`: `%<n>`. */
  readonly tmuxPane: string | null;
  /** claude's pid (`$CLAUDE_PID`, which command hooks see). */
  readonly pid: number | null;
  /** `$CLAUDE_HUB_SESSION_ID`, set in the sessions the hub starts. */
  readonly hubSession: string | null;
}

export const hookOriginHeaders = {
  tmux: 'X-Claude-Hub-Tmux',
  tmuxPane: 'X-Claude-Hub-Tmux-Pane',
  pid: 'X-Claude-Hub-Pid',
  hubSession: 'X-Claude-Hub-Session',
} as const;

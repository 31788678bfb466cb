import { GraphQLError } from 'graphql';

/** Stable codes of the errors a client can cause; they appear as `extensions.code`. */
export const ErrorCode = {
  /** An argument failed validation (bad UUID, missing directory, empty text...). */
  BadInput: 'BAD_USER_INPUT',
  /** No session has that id. */
  SessionNotFound: 'SESSION_NOT_FOUND',
  /** A session with that id exists already. */
  SessionExists: 'SESSION_ALREADY_EXISTS',
  /** The session's message queue is full; try again after some are delivered. */
  QueueFull: 'QUEUE_FULL',
  /**
   * Message text holds a control character (other than tab and line breaks), an escape
   * sequence or a lone surrogate; `extensions` name its position and code point.
   */
  ControlCharacter: 'CONTROL_CHARACTER',
  /** sendKeys got a key outside the allow-list. */
  KeyNotAllowed: 'KEY_NOT_ALLOWED',
  /** answerDialog found no dialog on the session's screen (it was answered, or never came). */
  NoDialog: 'NO_DIALOG',
  /** createSession's resume names a conversation claude has not recorded in that cwd. */
  ConversationNotFound: 'CONVERSATION_NOT_FOUND',
  /** The session runs headless: it has no terminal to show or press keys in. */
  NoTerminal: 'NO_TERMINAL',
  /** An external session whose claude runs outside tmux: the hub cannot type into it. */
  NotInTmux: 'NOT_IN_TMUX',
  /** resume or restart of a session a person started: the hub never launches its claude. */
  ExternalSession: 'EXTERNAL_SESSION',
  /** focusSession found no tmux client attached to the session's tmux server. */
  NoTmuxClient: 'NO_TMUX_CLIENT',
  /** send_to_channel named a channel nobody listens on and no --channel declares. */
  ChannelClosed: 'CHANNEL_CLOSED',
  /** resizeTerminal for a session whose terminal nobody watches through this hub. */
  TerminalNotWatched: 'TERMINAL_NOT_WATCHED',
  /** The session's terminal is on another node of the cluster: its `url` serves it. */
  OnOtherNode: 'ON_OTHER_NODE',
  /** The session runs already, so it cannot be resumed. */
  SessionRunning: 'SESSION_RUNNING',
  /** The session is stopped or crashed and cannot take input. */
  SessionNotRunning: 'SESSION_NOT_RUNNING',
  /** claude exited or never became ready; `extensions.screen` holds what it showed. */
  SessionStartFailed: 'SESSION_START_FAILED',
  /** A subscriber fell too far behind; resubscribe with `after` to resume. */
  SubscriberTooSlow: 'SUBSCRIBER_TOO_SLOW',
  /** No token, or one the hub does not know; at /mcp, no running session's secret. */
  Unauthenticated: 'UNAUTHENTICATED',
  /** The token's scope does not cover the field, or the HTTP route. */
  Forbidden: 'FORBIDDEN',
  /** The cwd lies outside every --allowed-root. */
  CwdNotAllowed: 'CWD_NOT_ALLOWED',
  /** --max-sessions sessions are live already. */
  SessionLimit: 'SESSION_LIMIT',
  /** createSession asked for a worktree, and its cwd is in no git checkout. */
  NotARepository: 'NOT_A_REPOSITORY',
  /** The session's worktree was removed, so it cannot run there again. */
  WorktreeRemoved: 'WORKTREE_REMOVED',
  /** commitWorktree of a session the hub made no worktree for. */
  NoWorktree: 'NO_WORKTREE',
  /** commitWorktree found nothing changed since the worktree's last commit. */
  NothingToCommit: 'NOTHING_TO_COMMIT',
  /** The operation is nested too deep or selects too many fields. */
  QueryTooComplex: 'QUERY_TOO_COMPLEX',
  /** The response would pass --max-response-bytes: ask for fewer items or fields. */
  ResponseTooLarge: 'RESPONSE_TOO_LARGE',
  /** The connection runs --max-subscriptions subscriptions already. */
  TooManySubscriptions: 'TOO_MANY_SUBSCRIPTIONS',
  /** No node of the cluster has that name. */
  NodeNotFound: 'NODE_NOT_FOUND',
  /** No permission rule has that id. */
  RuleNotFound: 'RULE_NOT_FOUND',
  /** The rule comes from the --policy-file: change it there. */
  RuleReadOnly: 'RULE_READ_ONLY',
  /** The node that runs the session is down or did not answer. */
  NodeUnreachable: 'NODE_UNREACHABLE',
  /** The cluster's Redis does not answer, so other nodes' sessions cannot be read now. */
  ClusterUnavailable: 'CLUSTER_UNAVAILABLE',
  /** An orchestration tool named a session outside the caller's reach (not its child). */
  OutOfReach: 'OUT_OF_REACH',
  /** start_session below --max-orchestration-depth. */
  DepthLimit: 'DEPTH_LIMIT',
  /** start_session by a session with --max-children live children already. */
  ChildLimit: 'CHILD_LIMIT',
  /** ask_session's turn did not end within its time (the message goes on). */
  AskTimeout: 'ASK_TIMEOUT',

  // Refusals of the plain HTTP routes (hooks, the event stream, node calls, the dashboard):
  /** A request the hub cannot read: a body cut off, a bad query parameter, not a node call. */
  BadRequest: 'BAD_REQUEST',
  /** A hook body that is not an event: not JSON, not an object, no session_id or hook_event_name. */
  BadHookPayload: 'BAD_HOOK_PAYLOAD',
  /** A hook without a session's secret, or with a session_id of another session. */
  Unauthorized: 'UNAUTHORIZED',
  /** A browser request whose Host is not loopback, on a hub without tokens (DNS rebinding). */
  HostNotAllowed: 'HOST_NOT_ALLOWED',
  /** A browser request from an origin not given with --cors-origin. */
  OriginNotAllowed: 'ORIGIN_NOT_ALLOWED',
  /** A state-changing request a form could send cross-site (a text or form body). */
  CsrfRefused: 'CSRF_REFUSED',
  NotFound: 'NOT_FOUND',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** A body without Content-Length, where the hub must know its size first. */
  LengthRequired: 'LENGTH_REQUIRED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  /** A JSON body nesting arrays or objects deeper than the hub reads, refused before parsing. */
  JsonTooDeep: 'JSON_TOO_DEEP',
  /** The token holds --max-connections WebSocket connections and event streams already. */
  TooManyConnections: 'TOO_MANY_CONNECTIONS',
  /** Something the hub did not expect; what it was is in the hub's log, not in the answer. */
  Internal: 'INTERNAL',
  /** The event could not be written to disk; claude carries on without it. */
  StoreUnavailable: 'STORE_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The HTTP status each code answers with on a plain HTTP route. */
const httpStatus: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  SESSION_NOT_FOUND: 404,
  SESSION_ALREADY_EXISTS: 409,
  CONVERSATION_NOT_FOUND: 404,
  QUEUE_FULL: 429,
  CONTROL_CHARACTER: 400,
  KEY_NOT_ALLOWED: 400,
  NO_DIALOG: 409,
  NO_TERMINAL: 409,
  NOT_IN_TMUX: 409,
  EXTERNAL_SESSION: 409,
  NO_TMUX_CLIENT: 409,
  CHANNEL_CLOSED: 409,
  TERMINAL_NOT_WATCHED: 409,
  ON_OTHER_NODE: 409,
  SESSION_RUNNING: 409,
  SESSION_NOT_RUNNING: 409,
  SESSION_START_FAILED: 502,
  SUBSCRIBER_TOO_SLOW: 429,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CWD_NOT_ALLOWED: 403,
  SESSION_LIMIT: 429,
  NOT_A_REPOSITORY: 400,
  WORKTREE_REMOVED: 409,
  NO_WORKTREE: 409,
  NOTHING_TO_COMMIT: 409,
  QUERY_TOO_COMPLEX: 400,
  RESPONSE_TOO_LARGE: 400,
  TOO_MANY_SUBSCRIPTIONS: 429,
  NODE_NOT_FOUND: 404,
  OUT_OF_REACH: 403,
  DEPTH_LIMIT: 429,
  CHILD_LIMIT: 429,
  ASK_TIMEOUT: 504,
  RULE_NOT_FOUND: 404,
  RULE_READ_ONLY: 409,
  NODE_UNREACHABLE: 502,
  CLUSTER_UNAVAILABLE: 503,
  BAD_REQUEST: 400,
  BAD_HOOK_PAYLOAD: 400,
  UNAUTHORIZED: 401,
  HOST_NOT_ALLOWED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  CSRF_REFUSED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  LENGTH_REQUIRED: 411,
  PAYLOAD_TOO_LARGE: 413,
  JSON_TOO_DEEP: 400,
  TOO_MANY_CONNECTIONS: 429,
  INTERNAL: 500,
  STORE_UNAVAILABLE: 503,
};

/**
 * The one error class for failures a client can cause, on every transport: yoga shows it
 * unmasked with `extensions.code`, and plain HTTP routes answer `{error, code}` with its
 * `httpStatus`. `cause` keeps what led to it, for the log; clients never see it.
 */
export class HubError extends GraphQLError {
  constructor(
    code: ErrorCode,
    message: string,
    extensions: Record<string, unknown> = {},
    options: { readonly cause?: unknown } = {},
  ) {
    super(message, { extensions: { ...extensions, code } });
    this.name = 'HubError';
    if (options.cause !== undefined) this.cause = options.cause;
  }

  get code(): ErrorCode {
    return this.extensions.code as ErrorCode;
  }

  get httpStatus(): number {
    return httpStatus[this.code];
  }

  /** The body of a plain HTTP refusal. */
  get body(): { error: string; code: ErrorCode } {
    return { error: this.message, code: this.code };
  }
}

/** Quotes a bad value and its type, so the message says exactly what was wrong. */
export function describeValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const shown = JSON.stringify(value) ?? String(value);
  return `${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} (${type})`;
}

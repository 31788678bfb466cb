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
  /** sendKeys got a key outside the allow-list. */
  KeyNotAllowed: 'KEY_NOT_ALLOWED',
  /** The session runs already, so it cannot be resumed. */
  SessionRunning: 'SESSION_RUNNING',
  /** The session is stopped or crashed and cannot take input. */
  SessionNotRunning: 'SESSION_NOT_RUNNING',
  /** claude exited or never became ready; `extensions.screen` holds what it showed. */
  SessionStartFailed: 'SESSION_START_FAILED',
  /** A subscriber fell too far behind; resubscribe with `after` to resume. */
  SubscriberTooSlow: 'SUBSCRIBER_TOO_SLOW',
  /** No token, or one the hub does not know. */
  Unauthenticated: 'UNAUTHENTICATED',
  /** The token's scope does not cover the field. */
  Forbidden: 'FORBIDDEN',
  /** The cwd lies outside every --allowed-root. */
  CwdNotAllowed: 'CWD_NOT_ALLOWED',
  /** --max-sessions sessions are live already. */
  SessionLimit: 'SESSION_LIMIT',
  /** The operation is nested too deep or selects too many fields. */
  QueryTooComplex: 'QUERY_TOO_COMPLEX',
  /** The connection runs --max-subscriptions subscriptions already. */
  TooManySubscriptions: 'TOO_MANY_SUBSCRIPTIONS',
  /** No node of the cluster has that name. */
  NodeNotFound: 'NODE_NOT_FOUND',
  /** The node that runs the session is down or did not answer. */
  NodeUnreachable: 'NODE_UNREACHABLE',
  /** The cluster's Redis does not answer, so other nodes' sessions cannot be read now. */
  ClusterUnavailable: 'CLUSTER_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The one error class for failures a client can cause; yoga shows it unmasked. */
export class HubError extends GraphQLError {
  constructor(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) {
    super(message, { extensions: { ...extensions, code } });
    this.name = 'HubError';
  }
}

/** Quotes a bad value and its type, so the message says exactly what was wrong. */
export function describeValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const shown = JSON.stringify(value) ?? String(value);
  return `${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} (${type})`;
}

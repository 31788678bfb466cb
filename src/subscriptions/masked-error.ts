import { GraphQLError } from 'graphql';
import { maskError } from 'graphql-yoga';
import type { Logger } from '../log.js';

/**
 * An error as a client may see it, on every transport: a GraphQLError made on purpose (a
 * HubError, a validation error) as it is; anything unexpected (an ordinary Error thrown
 * somewhere) masked as yoga masks it over HTTP (`Unexpected error.`, INTERNAL_SERVER_ERROR,
 * without the extensions yoga keeps for itself), and logged.
 */
export function masked(error: unknown, log: Logger): GraphQLError {
  const shown = maskError(error, 'Unexpected error.', false) as GraphQLError;
  if (shown === error) return shown;
  const cause = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  log.error({ err: cause }, 'unexpected error, masked');
  const { nodes, path, extensions } = shown;
  return new GraphQLError(shown.message, { nodes, path, extensions: { code: extensions.code } });
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from './claude-world.js';
import { startHub, type TestHub } from './hub.js';
import { tokensByScope, writeTokensFile } from './tokens-file.js';

/** The secret of each scope's token (`<scope>-bot`) on the access hub. */
export const secrets = {
  admin: 'admin-secret-0123456789',
  control: 'control-secret-0123456789',
  approve: 'approve-secret-0123456789',
  read: 'read-secret-0123456789',
};
export type Role = keyof typeof secrets;

/** The authorization header of a scope's token. */
export const as = (role: Role) => ({ authorization: `Bearer ${secrets[role]}` });

/** A hub with a token per scope, tight limits and one allowed origin, and its two sessions. */
export interface AccessHub {
  readonly world: ClaudeWorld;
  readonly hub: TestHub;
  /** Created by admin-bot in `<root>/a`. */
  readonly session: { id: string; tmuxSession: string };
  /** Created by control-bot in `<root>/b`. */
  readonly other: { id: string; tmuxSession: string };
  /** The only allowed root. */
  readonly root: string;
}

/**
 * Starts the access hub (at most 2 sessions, both taken; 2 subscriptions a connection; 3
 * connections a token; GraphQL bodies up to 100000 bytes; CORS for https://dash.example).
 */
export async function startAccessHub(): Promise<AccessHub> {
  const world = await startClaudeWorld();
  const root = world.makeCwd('allowed');
  const tokensFile = writeTokensFile(path.join(root, '..'), tokensByScope(secrets));
  const hub = await startHub({
    env: world.env,
    token: secrets.admin,
    args: [
      '--claude-bin',
      claudeBin,
      '--tokens-file',
      tokensFile,
      '--allowed-root',
      root,
      '--cors-origin',
      'https://dash.example',
      '--max-sessions',
      '2',
      '--max-subscriptions',
      '2',
      '--max-connections',
      '3',
      '--max-graphql-body',
      '100000',
    ],
  });
  const { gqlAs } = accessCalls(() => hub);
  const create = `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`;
  mkdirSync(path.join(root, 'a'));
  mkdirSync(path.join(root, 'b'));
  const { createSession: session } = await hub.data(create, { cwd: path.join(root, 'a') });
  const created = await gqlAs('control', create, { cwd: path.join(root, 'b') });
  return { world, hub, session, other: created.data!.createSession, root };
}

/** Requests to the hub `hub()` gives when called (so it may be started after this). */
export function accessCalls(hub: () => TestHub) {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(hub().url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const gqlAs = async (role: Role, query: string, variables: Record<string, unknown> = {}) =>
    (await (await post({ query, variables }, as(role))).json()) as {
      data?: Record<string, any>;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  /** Opens a graphql-ws connection; resolves with its close event, or 'open' once acked. */
  const connect = (
    connectionParams: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    new Promise<{ code: number; reason: string } | 'open'>((resolve) => {
      const client = createClient({
        url: hub().url.replace(/^http/, 'ws'),
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers });
          }
        },
        retryAttempts: 0,
        lazy: false,
        connectionParams,
        // The close is the outcome under test, resolved from `closed`; by default it is printed.
        onNonLazyError: () => undefined,
        on: {
          connected: () => {
            resolve('open');
            void client.dispose();
          },
          closed: (event) => resolve(event as { code: number; reason: string }),
        },
      });
    });
  return { post, gqlAs, connect };
}

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hookSecret } from '../../harness/session-secret.js';
import { startHub, type TestHub } from './hub.js';
import { tempDir } from './leftovers.js';

/** Where a hub takes hook events: its base URL (without `/graphql`) and its data dir. */
export interface HookTarget {
  readonly baseUrl: string;
  readonly dataDir: string;
}

/** The hub's own hook token, which its global hooks post with; the hub writes it at start. */
export function readHookToken(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
}

/**
 * Posts one hook event to the hub's `/hooks` with `token`, and `headers` besides (what the
 * forwarder says of claude's process and pane); resolves with the HTTP status.
 */
export async function postHook(
  hub: Pick<HookTarget, 'baseUrl'>,
  token: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(`${hub.baseUrl}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Posts one hook event like postHook; resolves with the hub's answer, the JSON claude reads. */
export async function hookAnswer(
  hub: Pick<HookTarget, 'baseUrl'>,
  token: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const response = await fetch(`${hub.baseUrl}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`the hub answered ${String(body.hook_event_name)} with ${response.status}`);
  return response.json();
}

/** A session whose claude the test plays, posting its hook events. */
export interface HookSession {
  /** claude's session id, which names the session on the hub. */
  readonly id: string;
  /** Posts the event `name` of this session with `fields`; resolves with the HTTP status. */
  post(name: string, fields?: Record<string, unknown>): Promise<number>;
  /** Posts the event `name` of this session with `fields`; resolves with the hub's answer. */
  answer(name: string, fields?: Record<string, unknown>): Promise<unknown>;
}

/**
 * A session started by hand: claude run by a person, whose global hooks post with a hook token
 * (the hub's own unless `token` names another of scope hook), with `headers` on each. Posts its
 * SessionStart (source `startup`, in `cwd`) and throws unless the hub took it; with
 * `started: false` it posts nothing, for a test that posts its own SessionStart.
 */
export async function hookSession(
  hub: HookTarget,
  options: {
    id?: string;
    cwd?: string;
    token?: string;
    headers?: Record<string, string>;
    started?: boolean;
  } = {},
): Promise<HookSession> {
  const id = options.id ?? randomUUID();
  const token = options.token ?? readHookToken(hub.dataDir);
  const session: HookSession = {
    id,
    post: (name, fields = {}) =>
      postHook(hub, token, { session_id: id, hook_event_name: name, ...fields }, options.headers),
    answer: (name, fields = {}) =>
      hookAnswer(hub, token, { session_id: id, hook_event_name: name, ...fields }, options.headers),
  };
  if (options.started !== false) {
    const status = await session.post('SessionStart', {
      source: 'startup',
      cwd: options.cwd ?? tmpdir(),
    });
    if (status !== 200) throw new Error(`the hub answered SessionStart with ${status}`);
  }
  return session;
}

/**
 * A session the hub starts (createSession in `cwd`), and its claude's hooks as the test plays
 * them: posted with the session's own hook secret, which the hub put in its tmux environment.
 */
export async function managedSession(
  hub: TestHub,
  cwd: string,
): Promise<HookSession & { readonly tmuxSession: string }> {
  const { createSession } = await hub.data<{ createSession: { id: string; tmuxSession: string } }>(
    `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
    { cwd },
  );
  const { id, tmuxSession } = createSession;
  const token = await hookSecret(hub.config.tmuxSocket, tmuxSession);
  const hooks = await hookSession(hub, { id, token, started: false });
  return { ...hooks, tmuxSession };
}

/**
 * A hub with a claude config of its own (no claude of the machine is its to find), and `post`,
 * which sends a hook event with the hub's hook token, as global hooks do; it gives the status.
 */
export async function startHookHub(
  args: string[],
): Promise<{ hub: TestHub; post: (body: Record<string, unknown>) => Promise<number> }> {
  const claudeConfig = tempDir('cch-claude-');
  const hub = await startHub({ env: { ...process.env, CLAUDE_CONFIG_DIR: claudeConfig }, args });
  const token = readHookToken(hub.dataDir);
  return { hub, post: (body) => postHook(hub, token, body) };
}

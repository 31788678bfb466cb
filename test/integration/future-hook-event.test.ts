import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeEventName } from '../../src/claude/hook-event-support.js';
import { hookEventNames } from '../../src/events/registry.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

/** The hook events of a claude newer than the registry: one more, FutureEvent. */
const futureList = [...hookEventNames, 'FutureEvent'];

/**
 * A stand-in for a newer claude (a fake claude, as the test of an event no real claude fires
 * yet needs): it prints a version, answers the hub's probe with its list of events, and as a
 * session runs the hooks its settings file registers as claude would: SessionStart through
 * the command hook, then FutureEvent over HTTP, and SessionEnd when tmux hangs up.
 */
const fakeClaude = `#!/usr/bin/env node
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const args = process.argv.slice(2);
const arg = (name) => args[args.indexOf(name) + 1];
if (args[0] === '--version') {
  console.log('2.1.340 (Claude Code)');
  process.exit(0);
}
if (args.includes('--debug-file')) {
  const names = ${JSON.stringify(futureList.join(', '))};
  fs.writeFileSync(arg('--debug-file'), 'Unknown hook event "${probeEventName}" was ignored. Valid events: ' + names + '\\n');
  process.exit(0);
}
const { hooks } = JSON.parse(fs.readFileSync(arg('--settings'), 'utf8'));
const base = { session_id: arg('--session-id'), transcript_path: '', cwd: process.cwd(), permission_mode: 'default' };
const hookOf = (event) => hooks[event][0].hooks[0];
const post = (event, fields) => {
  const hook = hookOf(event);
  const expand = (value) => value.replace(/\\$([A-Z_]+)/g, (_, name) => (hook.allowedEnvVars.includes(name) ? process.env[name] ?? '' : ''));
  const headers = Object.fromEntries(Object.entries(hook.headers).map(([key, value]) => [key, expand(value)]));
  return fetch(hook.url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...base, hook_event_name: event, ...fields }),
  });
};
execSync(hookOf('SessionStart').command, {
  input: JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
});
process.on('SIGHUP', () => post('SessionEnd', { reason: 'other' }).finally(() => process.exit(0)));
void post('FutureEvent', { future_field: { nested: [1, 'two'] } });
setInterval(() => {}, 1 << 30);
`;

describe('a hook event only a newer claude knows', () => {
  let hub: TestHub;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('cch-future-');
    const bin = path.join(dir, 'claude');
    writeFileSync(bin, fakeClaude);
    chmodSync(bin, 0o755);
    hub = await startHub({
      env: { ...process.env, CLAUDE_CONFIG_DIR: path.join(dir, 'config') },
      args: ['--claude-bin', bin],
    });
  });

  it('is listed by Query.claude, registered over HTTP, and arrives as UnknownHookEvent', async () => {
    const { claude } = await hub.data(
      `{ claude { version standing hookEventSource hookEvents { name typed http } } }`,
    );
    expect(claude).toMatchObject({ version: '2.1.340', standing: 'NEWER', hookEventSource: 'CLI' });
    expect(claude.hookEvents.map((event: { name: string }) => event.name)).toEqual(futureList);
    expect(claude.hookEvents.at(-1)).toEqual({ name: 'FutureEvent', typed: false, http: true });
    expect(hub.logs.map((line) => JSON.parse(line).msg)).toEqual(
      expect.arrayContaining([
        'claude CLI',
        'claude 2.1.340 is newer than the versions tested (2.1.328 to 2.1.332)',
      ]),
    );

    const { createSession: session } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id status } }`,
      { cwd: dir },
    );
    expect(session.status).toBe('IDLE');
    const settings = JSON.parse(
      readFileSync(path.join(hub.dataDir, 'sessions', `${session.id}.settings.json`), 'utf8'),
    );
    expect(Object.keys(settings.hooks)).toEqual(futureList);
    expect(settings.hooks.FutureEvent[0].hooks[0]).toMatchObject({
      type: 'http',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/),
    });

    const events = hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { __typename seq eventName payload } }`,
      { id: session.id },
    );
    const received = [(await events.next()).sessionEvents, (await events.next()).sessionEvents];
    expect(received).toEqual([
      expect.objectContaining({ __typename: 'SessionStartEvent', seq: 1 }),
      {
        __typename: 'UnknownHookEvent',
        seq: 2,
        eventName: 'FutureEvent',
        payload: expect.objectContaining({
          session_id: session.id,
          hook_event_name: 'FutureEvent',
          future_field: { nested: [1, 'two'] },
        }),
      },
    ]);
  });

  it('is in the global hooks a person installs, as claude supports it', async () => {
    const configDir = path.join(dir, 'config');
    const { installHooks } = await hub.data(
      `mutation($dir: String) { installHooks(scope: USER, dir: $dir) { path events } }`,
      { dir: configDir },
    );
    expect(installHooks.path).toBe(path.join(configDir, 'settings.json'));
    expect(installHooks.events).toEqual([...futureList].sort());
    const { hooks } = JSON.parse(readFileSync(installHooks.path, 'utf8'));
    expect(hooks.FutureEvent[0].hooks[0]).toMatchObject({
      type: 'http',
      url: expect.stringMatching(/\/hooks\?from=global$/),
    });
  });
});

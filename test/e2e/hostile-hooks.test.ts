import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { processRuns } from '../../src/runtime/process-state.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { leftovers, tempDir } from '../helpers/leftovers.js';
import { hookSession } from '../helpers/hook-session.js';

/**
 * Whoever holds the hook token writes a hook post's headers as they like. A forged SessionStart
 * naming an unrelated process and a plain shell's pane on another tmux server makes a session
 * whose events are kept, but the hub never signals that process nor types into that pane.
 */
describe('forged hook headers', () => {
  const secrets = { admin: 'forge-admin-secret-0123456789', hook: 'forge-hook-secret-0123456789' };
  let hub: TestHub;
  let dir: string;
  let socket: string;
  let victim: ChildProcess;

  beforeAll(async () => {
    dir = tempDir('cch-forge-');
    const file = writeTokensFile(dir, tokensByScope(secrets, ''));
    hub = await startHub({ args: ['--tokens-file', file], token: secrets.admin });
    victim = spawn('sleep', ['300'], { stdio: 'ignore' });
    leftovers.add(() => victim.kill('SIGKILL'));
    // A person's own tmux server with a plain shell: what runs there must stay theirs.
    socket = path.join(dir, 'tmux.sock');
    await execa('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'own', 'sh']);
    leftovers.add(() => execa('tmux', ['-S', socket, 'kill-server'], { reject: false }));
  });

  it('keeps the events but neither signals the process nor types into the pane', async () => {
    const { stdout } = await execa('tmux', [
      '-S',
      socket,
      'display-message',
      '-p',
      '#{pid} #{pane_id}',
    ]);
    const [serverPid, paneId] = stdout.trim().split(' ');
    const { id } = await hookSession(hub, {
      token: secrets.hook,
      cwd: dir,
      headers: {
        'x-claude-hub-pid': String(victim.pid),
        'x-claude-hub-tmux': `${socket},${serverPid},0`,
        'x-claude-hub-tmux-pane': paneId!,
      },
    });
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { origin events { eventName } } }`,
      { id },
    );
    expect(session).toEqual({ origin: 'EXTERNAL', events: [{ eventName: 'SessionStart' }] });

    const marker = path.join(dir, 'typed-into-shell');
    const attempts = [
      [`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id }],
      [
        `mutation($id: ID!, $data: String!) { sendTerminalInput(sessionId: $id, data: $data) }`,
        { id, data: `touch ${marker}\r` },
      ],
      [`mutation($id: ID!) { sendKeys(sessionId: $id, keys: ["y", "Enter"]) { id } }`, { id }],
      [`query($id: ID!) { session(id: $id) { screen } }`, { id }],
    ] as const;
    for (const [query, variables] of attempts) {
      const result = await hub.gql(query, variables);
      expect(result.errors?.[0]?.extensions?.code).toBe('EXTERNAL_SESSION');
      expect(result.errors?.[0]?.message).toMatch(/no claude of this session/);
    }
    const { enqueueMessage } = await hub.data(
      `mutation($id: ID!, $text: String!) { enqueueMessage(sessionId: $id, text: $text) { id } }`,
      { id, text: `touch ${marker}` },
    );
    expect(enqueueMessage.id).toBeTruthy();

    await sleep(1500);
    expect(processRuns(victim.pid!)).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const screen = await execa('tmux', ['-S', socket, 'capture-pane', '-p', '-t', paneId!]);
    expect(screen.stdout).not.toContain('touch');
  });
});

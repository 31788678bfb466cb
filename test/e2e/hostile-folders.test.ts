import { existsSync, mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';

/**
 * Values that reach tmux's command line are taken literally: a folder name never runs a command
 * or becomes another folder, and no value ends a tmux command early.
 */
describe('hostile folder names and values', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let root: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    root = world.makeCwd('root');
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--allowed-root', root],
    });
  });

  const start = async (cwd: string, model?: string) => {
    const { createSession } = await hub.data(
      `mutation($cwd: String!, $model: String) {
        createSession(input: { cwd: $cwd, model: $model, permissionMode: DEFAULT }) { id status cwd tmuxSession }
      }`,
      { cwd, model },
    );
    return createSession as { id: string; status: string; cwd: string; tmuxSession: string };
  };

  /** The cwd of the claude that runs the session, from the kernel. */
  const claudeCwd = async (id: string) => {
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 50) { eventName payload } } }`,
      { id },
    );
    const started = session.events.find(
      (e: { eventName: string }) => e.eventName === 'SessionStart',
    );
    return started.payload.cwd as string;
  };

  it('never runs #(...) from a folder name, and claude runs in that folder', async () => {
    // A name holds no slash: the command goes home first (the sessions' or the hub's), and
    // makes its file there.
    const name = `cch-pwned-${process.pid}-${Date.now()}`;
    const markers = [world.env.HOME!, homedir()].map((home) => path.join(home, name));
    const cwd = path.join(root, `w#(cd;touch ${name})`);
    mkdirSync(cwd);
    const session = await start(cwd);
    expect(session).toMatchObject({ status: 'IDLE', cwd });
    expect(await claudeCwd(session.id)).toBe(cwd);
    expect(markers.filter((marker) => existsSync(marker))).toEqual([]);
  });

  it.each(['#S', '#{pane_id}', '#{session_name}x', '##', 'semi;'])(
    'runs claude in a folder named %s, not in one tmux made of it',
    async (name) => {
      const cwd = path.join(root, name);
      mkdirSync(cwd, { recursive: true });
      const session = await start(cwd);
      expect(session.cwd).toBe(cwd);
      expect(await claudeCwd(session.id)).toBe(cwd);
    },
  );

  it('passes a model name ending in ";" to claude whole', async () => {
    const cwd = path.join(root, 'model');
    mkdirSync(cwd);
    const session = await start(cwd, 'sonnet;');
    const { session: read } = await hub.data(
      `query($id: ID!) { session(id: $id) { status model } }`,
      { id: session.id },
    );
    expect(read).toMatchObject({ status: 'IDLE', model: 'sonnet;' });
    // claude got `--model` and `sonnet;` as two arguments, and nothing of tmux's after them.
    const { stdout } = await execa('tmux', [
      '-L',
      hub.config.tmuxSocket,
      'list-panes',
      '-t',
      `=${session.tmuxSession}:`,
      '-F',
      '#{pane_pid}',
    ]);
    const argv = readFileSync(`/proc/${stdout.trim()}/cmdline`, 'utf8').split('\0');
    expect(argv.slice(argv.indexOf('--model'), argv.indexOf('--model') + 2)).toEqual([
      '--model',
      'sonnet;',
    ]);
    expect(readlinkSync(`/proc/${stdout.trim()}/cwd`)).toBe(session.cwd);
  });
});

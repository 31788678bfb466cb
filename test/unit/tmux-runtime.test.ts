import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaneState, TmuxDriver } from '../../src/runtime/tmux-driver.js';
import { TmuxRuntime } from '../../src/runtime/tmux-runtime.js';
import { session } from '../helpers/records.js';

const paneCheckMs = 60_000;

/** A tmux server whose panes the test sets; it counts how often they were listed. */
function fakeTmux() {
  const tmux = {
    panes: [] as PaneState[],
    listings: 0,
    async listPanes() {
      tmux.listings++;
      return tmux.panes;
    },
    async newSession() {},
    async killSession() {},
    pane: () => ({ capture: async () => 'the last screen' }),
  };
  return tmux;
}

const record = session('s1', 'IDLE', 0);

const pane = (pid: number, dead = false): PaneState => ({
  session: record.tmuxSession,
  dead,
  exitStatus: dead ? 1 : null,
  exitSignal: null,
  pid,
  command: 'claude',
});

/** A pid no process has any more. */
const exitedPid = () => spawnSync('true').pid;

async function launched() {
  const tmux = fakeTmux();
  const runtime = new TmuxRuntime(tmux as unknown as TmuxDriver, {
    paneCheckMs,
    inputSettleMs: 0,
    pasteSettleMs: 0,
  });
  await runtime.launch({
    record,
    env: {},
    claude: { claudeBin: 'claude', sessionId: 's1', settingsPath: '/dev/null' },
    inPlace: false,
  });
  return { tmux, runtime };
}

describe('the tmux runtime, noticing an exited claude', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the panes after a launch, then only when a pane process is gone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { tmux, runtime } = await launched();
    const child = exitedPid();
    tmux.panes = [pane(child)];
    vi.advanceTimersByTime(1);
    expect(await runtime.exits([record])).toEqual([]);
    expect(tmux.listings).toBe(1);

    // claude's process is gone: the kernel says so, and the next check lists the panes at once.
    tmux.panes = [pane(child, true)];
    vi.advanceTimersByTime(1);
    expect(await runtime.exits([record])).toEqual([
      { record, how: ' with status 1', screen: 'the last screen' },
    ]);
    expect(tmux.listings).toBe(2);
  });

  it('lists the panes once every paneCheckMs while every pane process seems alive', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { tmux, runtime } = await launched();
    // A pane's process id that another process took after claude exited: it still runs.
    tmux.panes = [pane(process.pid)];
    vi.advanceTimersByTime(1);
    expect(await runtime.exits([record])).toEqual([]);
    tmux.panes = [pane(process.pid, true)];
    for (let checks = 0; checks < 59; checks++) {
      vi.advanceTimersByTime(1000);
      expect(await runtime.exits([record])).toEqual([]);
    }
    expect(tmux.listings).toBe(1);

    vi.advanceTimersByTime(1000);
    expect(await runtime.exits([record])).toMatchObject([{ record, how: ' with status 1' }]);
    expect(tmux.listings).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { HubState, type Session, type SessionState } from '../../dashboard/src/hub-state.js';
import type { DashboardOverviewQuery } from '../../src/gql/graphql.js';

const state = (id: string, status: SessionState['status'], fields: Partial<SessionState> = {}) =>
  ({
    id,
    name: null,
    model: null,
    permissionMode: null,
    status,
    blockedReason: null,
    error: null,
    attachCommand: null,
    lastEventAt: null,
    restartCount: 0,
    node: null,
    tmuxPane: null,
    costUsd: null,
    limitedUntil: null,
    ...fields,
  }) satisfies SessionState;

const whole = (id: string, status: SessionState['status'], cwd = `/work/${id}`): Session => ({
  ...state(id, status),
  cwd,
  runtime: 'TMUX',
  createdAt: '2026-11-27T10:00:00.000Z',
  origin: 'EXTERNAL',
  parent: null,
});

const overview = (...sessions: Session[]): DashboardOverviewQuery => ({
  sessions,
  permissionRequests: [],
});

/** A request the test answers when it likes. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe("the dashboard's sessions, kept by changes of what changes", () => {
  it('puts a change over its session, keeping what it does not carry', async () => {
    const hub = new HubState(async () => null);
    await hub.loadOverview(async () => overview(whole('a', 'IDLE')));
    hub.updateSession(state('a', 'BUSY', { costUsd: 0.01 }));
    expect(hub.sessions.get('a')).toMatchObject({
      status: 'BUSY',
      costUsd: 0.01,
      cwd: '/work/a',
      origin: 'EXTERNAL',
    });
  });

  it('puts the changes heard while the overview was on its way over it, in order', async () => {
    const hub = new HubState(async () => null);
    const reply = deferred<DashboardOverviewQuery>();
    const loading = hub.loadOverview(() => reply.promise);
    // Heard before the overview came: the hub read it before the last of these.
    hub.updateSession(state('a', 'BUSY'));
    hub.updateSession(state('b', 'BUSY'));
    hub.updateSession(state('a', 'IDLE', { costUsd: 0.02 }));
    reply.resolve(overview(whole('a', 'BUSY'), whole('b', 'IDLE')));
    await loading;
    expect(hub.sessions.get('a')).toMatchObject({ status: 'IDLE', costUsd: 0.02 });
    expect(hub.sessions.get('b')).toMatchObject({ status: 'BUSY', cwd: '/work/b' });
  });

  it('loads a session heard of first from a change once, whole, and puts later changes over it', async () => {
    const loads: string[] = [];
    const reply = deferred<Session | null>();
    const hub = new HubState((id) => {
      loads.push(id);
      return reply.promise;
    });
    await hub.loadOverview(async () => overview(whole('a', 'IDLE')));
    let renders = 0;
    hub.onChange(() => renders++);

    hub.updateSession(state('n', 'BUSY'));
    hub.updateSession(state('n', 'IDLE', { costUsd: 0.03 }));
    expect(loads).toEqual(['n']);
    expect(hub.sessions.has('n')).toBe(false);
    expect(renders).toBe(0);

    // The hub read it before the IDLE change.
    reply.resolve(whole('n', 'BUSY', '/srv/new'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hub.sessions.get('n')).toMatchObject({
      status: 'IDLE',
      costUsd: 0.03,
      cwd: '/srv/new',
      runtime: 'TMUX',
    });
    expect(renders).toBe(1);
    expect([...hub.sessions.keys()]).toEqual(['a', 'n']);
  });

  it('loads a session again at its next change when the load failed or found none', async () => {
    const answers = [
      () => Promise.reject(new Error('offline')),
      () => Promise.resolve(null),
      (id: string) => Promise.resolve(whole(id, 'IDLE')),
    ];
    const loads: string[] = [];
    const hub = new HubState((id) => {
      loads.push(id);
      return answers[loads.length - 1]!(id);
    });
    await hub.loadOverview(async () => overview());
    for (let i = 0; i < 3; i++) {
      hub.updateSession(state('n', 'IDLE'));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(loads).toEqual(['n', 'n', 'n']);
    expect(hub.sessions.get('n')).toMatchObject({ cwd: '/work/n' });
  });

  it('waits for the overview rather than loading sessions before it', async () => {
    const loads: string[] = [];
    const hub = new HubState(async (id) => {
      loads.push(id);
      return null;
    });
    const reply = deferred<DashboardOverviewQuery>();
    const loading = hub.loadOverview(() => reply.promise);
    hub.updateSession(state('a', 'BUSY'));
    reply.resolve(overview(whole('a', 'IDLE')));
    await loading;
    expect(loads).toEqual([]);
    expect(hub.sessions.get('a')?.status).toBe('BUSY');
  });
});

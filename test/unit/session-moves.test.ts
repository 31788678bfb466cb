import { describe, expect, it } from 'vitest';
import { SessionStatus, type SessionStatus as Status } from '../../src/sessions/session.js';
import {
  allowed,
  lifecycle,
  Move,
  next,
  type LifecycleState,
} from '../../src/sessions/session-lifecycle.js';

const { Starting, Idle, Busy, Blocked, Stopped, Crashed, Disconnected } = SessionStatus;
const stored: Status[] = [Starting, Idle, Busy, Blocked, Stopped, Crashed, Disconnected];
const running: Status[] = [Starting, Idle, Busy, Blocked, Disconnected];

/** Every move, and the stored states it may start from: the table the lifecycle must match. */
const expected: [Move, Status[], Status][] = [
  [Move.Launch, stored, Starting],
  [Move.ResumedByHand, [Stopped, Crashed], Starting],
  [Move.Started, running, Idle],
  [Move.PromptSubmitted, running, Busy],
  [Move.TurnEnded, running, Idle],
  [Move.CaughtUpIdle, running, Idle],
  [Move.CaughtUpBusy, running, Busy],
  [Move.TurnInterrupted, [Busy, Blocked], Idle],
  [Move.StartupBlocked, [Starting], Blocked],
  [Move.DialogShown, [Busy], Blocked],
  [Move.DialogAnswered, [Blocked], Busy],
  [Move.Disconnected, running, Disconnected],
  [Move.Stopped, stored, Stopped],
  [Move.Crashed, stored, Crashed],
];

const state = (status: Status, extra: Partial<LifecycleState> = {}): LifecycleState => ({
  status,
  statusSince: 100,
  blockedReason: status === Blocked ? 'DIALOG' : null,
  error: 'before',
  ended: true,
  ...extra,
});

describe('the session lifecycle table', () => {
  it('names every move once', () => {
    expect(expected.map(([move]) => move).sort()).toEqual(Object.values(Move).sort());
  });

  for (const [move, from, to] of expected) {
    for (const status of stored) {
      const may = from.includes(status);
      it(`${move} from ${status}: ${may ? to : 'no move'}`, () => {
        expect(allowed(move, status)).toBe(may);
        const before = state(status);
        const after = next(before, move, { at: 200, reason: 'WORKSPACE_TRUST', error: 'why' });
        expect(before).toEqual(state(status)); // pure: the state given is left alone
        if (!may) {
          expect(after).toBeNull();
          return;
        }
        expect(after?.status).toBe(to);
        expect(after?.statusSince).toBe(to === status ? 100 : 200);
      });
    }
  }

  it('clears, sets or keeps the error as each move says', () => {
    for (const [move, from] of expected) {
      const after = next(state(from[0]!), move, { at: 1, error: 'new' })!;
      const rule = lifecycle[move].error;
      expect(after.error, move).toBe(rule === 'clear' ? null : rule === 'set' ? 'new' : 'before');
    }
  });

  it('keeps blockedReason only while BLOCKED, and takes the reason of a move into BLOCKED', () => {
    expect(next(state(Starting), Move.StartupBlocked, { at: 1, reason: 'API_KEY' })).toMatchObject({
      status: Blocked,
      blockedReason: 'API_KEY',
    });
    expect(next(state(Blocked), Move.DialogAnswered, { at: 1 })?.blockedReason).toBeNull();
    expect(next(state(Blocked), Move.Stopped, { at: 1, error: null })).toMatchObject({
      blockedReason: null,
      error: null,
    });
  });

  it('revives the session only on a launch, by the hub or by hand', () => {
    for (const [move, from] of expected) {
      const revives = move === Move.Launch || move === Move.ResumedByHand;
      expect(next(state(from[0]!), move, { at: 1 })!.ended, move).toBe(!revives);
    }
  });
});

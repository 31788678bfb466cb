import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { PermissionBroker } from '../../src/permissions/permission-broker.js';
import {
  hookAnswer,
  settledBy,
  type PermissionRecord,
} from '../../src/permissions/permission-request.js';
import { attentionItems } from '../../src/sessions/attention.js';
import { SessionStatus, type SessionRecord } from '../../src/sessions/session.js';
import { RecordTable } from '../../src/store/record-table.js';

function store(): RecordTable<PermissionRecord> {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE permissions (id TEXT PRIMARY KEY, record TEXT NOT NULL)');
  return new RecordTable<PermissionRecord>(db, 'permissions');
}

function request(overrides: Partial<PermissionRecord> = {}): PermissionRecord {
  return {
    id: 'r1',
    sessionId: 's1',
    eventSeq: 5,
    toolName: 'Bash',
    toolInput: { command: 'touch /x' },
    suggestions: null,
    requestedAt: 1000,
    status: 'PENDING',
    decidedAt: null,
    message: null,
    ...overrides,
  };
}

describe('hookAnswer', () => {
  it("speaks Claude Code's PermissionRequest decision format", () => {
    expect(
      hookAnswer({ requestId: 'r', behavior: 'ALLOW', updatedInput: { command: 'ls' } }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { command: 'ls' } },
      },
    });
    expect(
      hookAnswer({ requestId: 'r', behavior: 'DENY', message: 'no', interrupt: true }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no', interrupt: true },
      },
    });
    expect(hookAnswer({ requestId: 'r', behavior: 'ALLOW' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
  });
});

describe('settledBy', () => {
  it('sees the same tool run or refused, or the turn move on', () => {
    const r = request();
    expect(
      settledBy(r, 'PostToolUse', { tool_name: 'Bash', tool_input: { command: 'touch /x' } }),
    ).toBe(true);
    expect(
      settledBy(r, 'PostToolUse', { tool_name: 'Bash', tool_input: { command: 'other' } }),
    ).toBe(false);
    expect(
      settledBy(r, 'PermissionDenied', { tool_name: 'Bash', tool_input: { command: 'touch /x' } }),
    ).toBe(true);
    expect(settledBy(r, 'Stop', {})).toBe(true);
    expect(settledBy(r, 'Notification', {})).toBe(false);
  });
});

describe('PermissionBroker', () => {
  it('marks a request that was pending when the hub died as EXPIRED, saying why', () => {
    const s = store();
    s.save(request());
    const broker = new PermissionBroker(
      { holdMs: 1000, onExpiry: 'ask', changed: () => {}, resolved: async () => {} },
      s,
    );
    expect(broker.get('r1')).toMatchObject({
      status: 'EXPIRED',
      message: 'the hub restarted while holding this request; answer it in the terminal',
    });
    expect(broker.pending('s1')).toEqual([]);
  });

  it('answers a held request once, and refuses a second decision with a typed error', async () => {
    const changes: string[] = [];
    const broker = new PermissionBroker(
      {
        holdMs: 60_000,
        onExpiry: 'ask',
        changed: (r) => changes.push(r.status),
        resolved: async () => {},
      },
      store(),
    );
    const event = {
      sessionId: 's1',
      seq: 3,
      eventName: 'PermissionRequest',
      receivedAt: 5,
      raw: '',
      payload: {
        session_id: 's1',
        hook_event_name: 'PermissionRequest',
        tool_name: 'Write',
        tool_input: { file_path: '/a' },
      },
    } as StoredEvent;
    const answer = broker.hold(event, new AbortController().signal, () => true);
    const [pending] = broker.pending('s1');
    expect(pending).toMatchObject({ toolName: 'Write', status: 'PENDING', eventSeq: 3 });
    expect(
      broker.decide({ requestId: pending!.id, behavior: 'DENY', message: 'nope' }).error,
    ).toBeNull();
    expect(await answer).toEqual(
      hookAnswer({ requestId: pending!.id, behavior: 'DENY', message: 'nope' }),
    );
    expect(broker.decide({ requestId: pending!.id, behavior: 'ALLOW' }).error?.code).toBe(
      'ALREADY_DECIDED',
    );
    expect(changes).toEqual(['PENDING', 'DENIED']);
  });

  it('denies on expiry when configured to', async () => {
    const broker = new PermissionBroker(
      { holdMs: 20, onExpiry: 'deny', changed: () => {}, resolved: async () => {} },
      store(),
    );
    const event = {
      sessionId: 's',
      seq: 1,
      eventName: 'PermissionRequest',
      receivedAt: 1,
      raw: '',
      payload: { session_id: 's', hook_event_name: 'PermissionRequest' },
    } as StoredEvent;
    const answer = await broker.hold(event, new AbortController().signal, () => true);
    expect(answer).toEqual(
      hookAnswer({ requestId: 'x', behavior: 'DENY', message: 'no decision within 0 s' }),
    );
    expect(broker.list()[0]).toMatchObject({
      status: 'EXPIRED',
      message: 'no decision within 0 s',
    });
  });
});

describe('attentionItems', () => {
  const session = (id: string, status: SessionStatus, statusSince: number) =>
    ({ id, status, statusSince, lastAssistantMessage: null }) as SessionRecord;

  it('puts permission requests first, then blocked, disconnected, crashed and idle, each longest-waiting first', () => {
    const sessions = [
      session('idle-old', 'IDLE', 1),
      session('idle-new', 'IDLE', 50),
      session('busy', 'BUSY', 2),
      session('crashed', 'CRASHED', 40),
      session('blocked', 'BLOCKED', 30),
      session('asking', 'BUSY', 3),
      session('stopped', 'STOPPED', 0),
      session('deaf', 'DISCONNECTED', 60),
    ];
    const pending = request({ sessionId: 'asking', requestedAt: 99 });
    const items = attentionItems(sessions, (id) => (id === 'asking' ? [pending] : []));
    expect(items.map((item) => [item.session.id, item.reason, item.since])).toEqual([
      ['asking', 'PERMISSION', 99],
      ['blocked', 'BLOCKED', 30],
      ['deaf', 'DISCONNECTED', 60],
      ['crashed', 'CRASHED', 40],
      ['idle-old', 'IDLE', 1],
      ['idle-new', 'IDLE', 50],
    ]);
    expect(items[0]?.permissionRequest).toBe(pending);
  });
});

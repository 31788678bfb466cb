import { describe, expect, it } from 'vitest';
import type { HookPayload, StoredEvent } from '../../src/events/hook-event.js';
import { parseHookBody } from '../../src/events/hook-event.js';
import { claudeCommand } from '../../src/runtime/claude-command.js';
import { maxPasteChars, maxPasteLineBreaks, pasteChunks } from '../../src/runtime/tmux-pane.js';
import { SessionStatus, type SessionRecord } from '../../src/sessions/session.js';
import { applyEvent, moveOnExit } from '../../src/sessions/session-status.js';
import { decideRestart } from '../../src/sessions/restart-policy.js';

function record(): SessionRecord {
  return {
    id: 'a',
    name: null,
    cwd: '/tmp',
    runtime: 'TMUX',
    origin: 'MANAGED',
    pane: null,
    pid: null,
    model: null,
    permissionMode: null,
    tmuxSession: 'claude-a',
    settingsPath: '/tmp/a.json',
    hookUrl: null,
    hookSecretHash: 'h',
    claudeSessionId: 'a',
    transcriptPath: null,
    status: SessionStatus.Starting,
    statusSince: 0,
    blockedReason: null,
    error: null,
    ended: false,
    restartCount: 0,
    restartTimes: [],
    createdAt: 1,
    lastEventAt: null,
    lastAssistantMessage: null,
    labels: [],
    createdBy: null,
    worktree: null,
    budgetUsd: null,
    budgetHold: null,
    account: null,
    usageLimit: null,
    parentId: null,
    orchestration: null,
  };
}

let seq = 0;
function event(name: string, fields: Record<string, unknown> = {}, sessionId = 'a'): StoredEvent {
  const payload = { session_id: sessionId, hook_event_name: name, ...fields } as HookPayload;
  return {
    sessionId: 'a',
    seq: ++seq,
    eventName: name,
    receivedAt: 1000 + seq,
    raw: JSON.stringify(payload),
    payload,
  };
}

describe('status derivation', () => {
  it('follows a turn: STARTING, IDLE, BUSY, IDLE with the last message', () => {
    const r = record();
    expect(applyEvent(r, event('SessionStart', { source: 'startup' }))).toBe(true);
    expect(r.status).toBe('IDLE');
    applyEvent(r, event('UserPromptSubmit', { prompt: 'hi' }));
    expect(r.status).toBe('BUSY');
    applyEvent(r, event('PreToolUse', { tool_name: 'Bash' }));
    expect(r.status).toBe('BUSY');
    applyEvent(r, event('Stop', { last_assistant_message: 'done' }));
    expect(r).toMatchObject({ status: 'IDLE', lastAssistantMessage: 'done' });
    expect(r.lastEventAt).toBe(1000 + seq);
  });

  it('does not end the session on SessionEnd with reason clear, and follows the new id', () => {
    const r = record();
    applyEvent(r, event('SessionStart'));
    applyEvent(r, event('SessionEnd', { reason: 'clear' }));
    expect(r.ended).toBe(false);
    applyEvent(r, event('SessionStart', { source: 'clear' }, 'b'));
    expect(r.claudeSessionId).toBe('b');
    expect(moveOnExit(r)).toBe('CRASHED');
  });

  it('is STOPPED when claude exits after a real SessionEnd, CRASHED otherwise', () => {
    const r = record();
    applyEvent(r, event('SessionStart'));
    expect(moveOnExit(r)).toBe('CRASHED');
    applyEvent(r, event('SessionEnd', { reason: 'other' }));
    expect(moveOnExit(r)).toBe('STOPPED');
  });

  it('is CRASHED when claude ends before its SessionStart, even with a SessionEnd', () => {
    const r = record();
    applyEvent(r, event('SessionEnd', { reason: 'other' }));
    expect(r.status).toBe('STARTING');
    expect(moveOnExit(r)).toBe('CRASHED');
  });

  it('never revives a finished session from a late event', () => {
    const r = record();
    r.status = SessionStatus.Stopped;
    applyEvent(r, event('UserPromptSubmit'));
    expect(r.status).toBe('STOPPED');
  });
});

describe('parseHookBody', () => {
  it('accepts an object with session_id and hook_event_name', () => {
    expect(parseHookBody('{"session_id":"s","hook_event_name":"Stop","x":[1]}')).toEqual({
      ok: true,
      payload: { session_id: 's', hook_event_name: 'Stop', x: [1] },
    });
  });

  it.each([
    ['{', /^body is not valid JSON/],
    ['[1]', /^body must be a JSON object$/],
    ['null', /^body must be a JSON object$/],
    ['{"hook_event_name":"Stop"}', /^"session_id" must be a non-empty string/],
    ['{"session_id":"s","hook_event_name":7}', /^"hook_event_name" must be a non-empty string/],
  ])('rejects %s', (body, error) => {
    const result = parseHookBody(body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it('takes payloads nested up to 256 levels, and refuses deeper ones', () => {
    const body = (depth: number) =>
      `{"session_id":"s","hook_event_name":"Stop","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(parseHookBody(body(255)).ok).toBe(true);
    expect(parseHookBody(body(256))).toEqual({
      ok: false,
      error: 'body nests objects or arrays deeper than 256 levels',
    });
  });
});

describe('claudeCommand', () => {
  it('builds the argv for a new session with model and mode', () => {
    expect(
      claudeCommand({
        claudeBin: 'claude',
        sessionId: 'id',
        settingsPath: '/s.json',
        model: 'sonnet',
        permissionMode: 'acceptEdits',
      }),
    ).toEqual([
      'claude',
      '--session-id',
      'id',
      '--settings',
      '/s.json',
      '--model',
      'sonnet',
      '--permission-mode',
      'acceptEdits',
    ]);
  });

  it('resumes instead of starting when asked, and leaves out what was not given', () => {
    expect(
      claudeCommand({
        claudeBin: '/bin/c',
        sessionId: 'id',
        settingsPath: '/s.json',
        resume: true,
      }),
    ).toEqual(['/bin/c', '--resume', 'id', '--settings', '/s.json']);
  });
});

describe('pasteChunks', () => {
  it('keeps short text whole', () => {
    expect(pasteChunks('one line')).toEqual(['one line']);
    expect(pasteChunks('a\nb\nc')).toEqual(['a\nb\nc']);
  });

  it('starts a new paste before a third line break or past 800 characters, never inside a code point', () => {
    expect(pasteChunks('1\n2\n3\n4\n5')).toEqual(['1\n2\n3', '\n4\n5']);
    const emoji = '🚀'.repeat(500);
    const chunks = pasteChunks(emoji);
    expect(chunks.join('')).toBe(emoji);
    expect(
      chunks.every((chunk) => chunk.length <= maxPasteChars && !/^[\uDC00-\uDFFF]/.test(chunk)),
    ).toBe(true);
  });

  it('joins back to the same text', () => {
    const text = Array.from({ length: 50 }, (_, i) => `${'x'.repeat(i * 37)}\n`).join('');
    const chunks = pasteChunks(text);
    expect(chunks.join('')).toBe(text);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(maxPasteChars);
      expect((chunk.match(/\n/g) ?? []).length).toBeLessThanOrEqual(maxPasteLineBreaks);
    }
  });
});

describe('decideRestart', () => {
  const policy = { limit: 3, windowMs: 60_000, initialDelayMs: 1000, maxDelayMs: 3000 };

  it('doubles the delay with each recent restart, up to the cap', () => {
    expect(decideRestart(policy, [], 100_000)).toEqual({ restart: true, delayMs: 1000 });
    expect(decideRestart(policy, [90_000], 100_000)).toEqual({ restart: true, delayMs: 2000 });
    expect(decideRestart({ ...policy, limit: 5 }, [90_000, 95_000, 99_000], 100_000)).toEqual({
      restart: true,
      delayMs: 3000,
    });
  });

  it('gives up after the limit within the window, and forgets restarts outside it', () => {
    const decision = decideRestart(policy, [50_000, 70_000, 90_000], 100_000);
    expect(decision).toEqual({
      restart: false,
      reason: 'not restarted again: it crashed after 3 restarts within 60 s',
    });
    expect(decideRestart(policy, [10_000, 20_000, 90_000], 100_000)).toEqual({
      restart: true,
      delayMs: 2000,
    });
  });

  it('never restarts when the limit is 0', () => {
    expect(decideRestart({ ...policy, limit: 0 }, [], 0)).toEqual({
      restart: false,
      reason: 'automatic restarts are off',
    });
  });
});

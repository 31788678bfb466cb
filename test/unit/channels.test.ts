import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { channelHeader, parseChannelSpec } from '../../src/channels/channel.js';
import { Channels, maxChannelTextChars } from '../../src/channels/channels.js';
import { hubToolAllowance } from '../../src/mcp/hub-tools.js';
import { promptOf } from '../../src/sessions/message.js';
import { hookSettings, mcpConfig, mcpConfigPath } from '../../src/sessions/hook-settings.js';
import { openDatabase } from '../../src/store/database.js';
import { SqliteChannelLog } from '../../src/channels/sqlite-channel-log.js';
import { FakeClock } from '../helpers/fake-clock.js';

const opened: { db: Database.Database; dir: string }[] = [];
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function channels(
  declared: [string, string | null][] = [],
  retention = { perChannel: 0, maxAgeMs: 0 },
  bufferLimit = 100,
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cch-channels-'));
  const db = openDatabase(dir);
  opened.push({ db, dir });
  const clock = new FakeClock();
  const log = new SqliteChannelLog(db, retention);
  return {
    clock,
    log,
    hub: new Channels({ declared: new Map(declared), bufferLimit, clock }, log),
  };
}

async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const taken: T[] = [];
  while (taken.length < count) taken.push((await iterator.next()).value as T);
  return taken;
}

describe('channel names', () => {
  it('reads --channel NAME[:description] and refuses names that do not read well', () => {
    expect(parseChannelSpec('ops')).toEqual({ name: 'ops', description: null });
    expect(parseChannelSpec('pager: the on-call pager: urgent only')).toEqual({
      name: 'pager',
      description: 'the on-call pager: urgent only',
    });
    expect(() => parseChannelSpec('two words')).toThrow(/channel name "two words" is not/);
    expect(() => parseChannelSpec(':desc')).toThrow(/channel name "" is not/);
    expect(() => parseChannelSpec('x'.repeat(65))).toThrow(/is not 1-64/);
  });

  it('types a message from a channel below a header naming it', () => {
    expect(promptOf({ text: 'hi', channel: 'slack' })).toBe(`${channelHeader('slack')}\nhi`);
    expect(promptOf({ text: 'hi', channel: null })).toBe('hi');
    expect(promptOf({ text: 'hi' })).toBe('hi');
  });
});

describe('Channels', () => {
  it('refuses a message to a closed channel, naming the open ones', () => {
    const { hub } = channels([['pager', 'the pager']]);
    expect(() => hub.send('s1', 'ops', 'hi')).toThrow(
      'channel "ops" is not open; open channels: pager',
    );
    const { hub: none } = channels();
    expect(() => none.send('s1', 'ops', 'hi')).toThrow(
      expect.objectContaining({
        code: 'CHANNEL_CLOSED',
        message: expect.stringMatching(/no channel is open/),
      }),
    );
  });

  it('refuses a text over the limit and stores nothing', () => {
    const { hub, log } = channels([['ops', null]]);
    expect(() => hub.send('s1', 'ops', 'x'.repeat(maxChannelTextChars + 1))).toThrow(
      expect.objectContaining({
        code: 'BAD_USER_INPUT',
        message: expect.stringMatching(/limit is 65536/),
      }),
    );
    expect(log.last('ops')).toBeNull();
    expect(hub.send('s1', 'ops', 'x'.repeat(maxChannelTextChars)).seq).toBe(1);
  });

  it('opens a channel while a listener reads it and closes it when the last one leaves', async () => {
    const { hub, clock } = channels([['pager', 'the pager']]);
    const first = hub.listen('ops', null, 'ops bridge');
    const second = hub.listen('ops', null, 'ignored: the first one named it');
    expect(hub.list()).toEqual([
      { name: 'ops', description: 'ops bridge', listeners: 2, lastMessageAt: null },
      { name: 'pager', description: 'the pager', listeners: 0, lastMessageAt: null },
    ]);
    const sent = hub.send('s1', 'ops', 'deployed');
    expect(sent).toEqual({
      seq: 1,
      channel: 'ops',
      sessionId: 's1',
      text: 'deployed',
      at: clock.now(),
    });
    expect(await take(first, 1)).toEqual([sent]);
    expect(await take(second, 1)).toEqual([sent]);
    await first.return!();
    expect(hub.get('ops').listeners).toBe(1);
    await second.return!();
    expect(hub.list().map((channel) => channel.name)).toEqual(['pager']);
    expect(() => hub.send('s1', 'ops', 'anyone?')).toThrow(/not open/);
  });

  it('ends a listener waiting for a message at once when it returns', async () => {
    const { hub } = channels();
    const listener = hub.listen('ops', null);
    const waiting = listener.next();
    await listener.return!();
    await expect(waiting).resolves.toEqual({ value: undefined, done: true });
    expect(hub.isOpen('ops')).toBe(false);
  });

  it('replays from `after` then goes on live, with no gap and no duplicate', async () => {
    const { hub } = channels([['ops', null]]);
    for (let i = 1; i <= 5; i++) hub.send('s1', 'ops', `m${i}`);
    const listener = hub.listen('ops', 2);
    // Sent after the listener joined, while its replay is still unread.
    hub.send('s2', 'ops', 'm6');
    const texts = (await take(listener, 4)).map((message) => `${message.seq}:${message.text}`);
    expect(texts).toEqual(['3:m3', '4:m4', '5:m5', '6:m6']);
    hub.send('s1', 'ops', 'm7');
    expect((await take(listener, 1))[0]).toMatchObject({ seq: 7, text: 'm7' });
    await listener.return!();
    // Without `after`, only what comes next.
    const live = hub.listen('ops', null);
    hub.send('s1', 'ops', 'm8');
    expect((await take(live, 1))[0]).toMatchObject({ seq: 8 });
    await live.return!();
  });

  it('drops a listener that falls more than its buffer behind; it comes back with `after`', async () => {
    const { hub } = channels([['ops', null]], { perChannel: 0, maxAgeMs: 0 }, 3);
    const slow = hub.listen('ops', null);
    for (let i = 1; i <= 5; i++) hub.send('s1', 'ops', `m${i}`);
    await expect(slow.next()).rejects.toMatchObject({ code: 'SUBSCRIBER_TOO_SLOW' });
    await slow.return!();
    const back = hub.listen('ops', 0);
    expect((await take(back, 5)).map((message) => message.seq)).toEqual([1, 2, 3, 4, 5]);
    await back.return!();
  });

  it('keeps each channel numbered per channel, and prunes past retention keeping the latest', () => {
    const { hub, log, clock } = channels(
      [
        ['a', null],
        ['b', null],
      ],
      { perChannel: 2, maxAgeMs: 60_000 },
    );
    for (let i = 1; i <= 4; i++) hub.send('s1', 'a', `a${i}`);
    hub.send('s1', 'b', 'b1');
    expect(hub.get('b')).toMatchObject({ lastMessageAt: clock.now() });
    hub.prune();
    expect(log.after('a', 0, 100).map((message) => message.seq)).toEqual([3, 4]);
    clock.advance(120_000);
    hub.prune();
    expect(log.after('a', 0, 100).map((message) => message.seq)).toEqual([4]);
    expect(log.after('b', 0, 100).map((message) => message.seq)).toEqual([1]);
    expect(hub.send('s1', 'a', 'a5').seq).toBe(5);
  });
});

describe("the hub's MCP server in a session's files", () => {
  it('allows only its own tools, on their PreToolUse and PermissionRequest', () => {
    expect(hubToolAllowance('PreToolUse', 'mcp__hub__send_to_channel')).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    });
    expect(hubToolAllowance('PermissionRequest', 'mcp__hub__list_channels')).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    expect(hubToolAllowance('PostToolUse', 'mcp__hub__list_channels')).toBeNull();
    expect(hubToolAllowance('PreToolUse', 'mcp__hub__delete_everything')).toBeNull();
    expect(hubToolAllowance('PreToolUse', 'mcp__other__send_to_channel')).toBeNull();
    expect(hubToolAllowance('PreToolUse', 'Bash')).toBeNull();
    expect(hubToolAllowance('PreToolUse', undefined)).toBeNull();
  });

  it('puts no secret in the files: claude expands it from its environment', () => {
    expect(mcpConfig('http://127.0.0.1:4000/hooks')).toEqual({
      mcpServers: {
        hub: {
          type: 'http',
          url: 'http://127.0.0.1:4000/mcp',
          headers: { Authorization: 'Bearer ${CLAUDE_HUB_HOOK_SECRET}' },
        },
      },
    });
    expect(mcpConfigPath('/data/sessions/x.settings.json')).toBe('/data/sessions/x.mcp.json');
    const settings = hookSettings({
      hookUrl: 'http://127.0.0.1:4000/hooks',
      forwarderPath: '/hub/hooks/forward.sh',
      httpTimeoutSeconds: 10,
      permissionTimeoutSeconds: 330,
    });
    // The orchestration tools too: the hub's hook still tries a permission rule on them first,
    // and only a session started with orchestrate is offered them.
    expect(settings.permissions.allow).toEqual([
      'mcp__hub__send_to_channel',
      'mcp__hub__list_channels',
      'mcp__hub__list_sessions',
      'mcp__hub__start_session',
      'mcp__hub__ask_session',
      'mcp__hub__send_to_session',
      'mcp__hub__session_status',
      'mcp__hub__stop_session',
    ]);
  });
});

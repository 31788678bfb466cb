import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import type { PermissionRecord } from '../../src/permissions/permission-request.js';
import { raisedItems, type AttentionItem } from '../../src/sessions/attention.js';
import type { SessionRecord } from '../../src/sessions/session.js';
import { hexKeys } from '../../src/runtime/hex-keys.js';
import { ControlModeReader, unescapeOutput } from '../../src/terminal/control-mode.js';
import {
  parsePaneView,
  snapshotCommand,
  snapshotData,
  type PaneView,
} from '../../src/terminal/terminal-snapshot.js';
import { TerminalViewer, type TerminalChunk } from '../../src/terminal/terminal-viewer.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('tmux control mode, read', () => {
  it('unescapes octal output and keeps other bytes, UTF-8 included', () => {
    expect(unescapeOutput(bytes('a\\033[31mb\\015\\012\\134c')).toString('latin1')).toBe(
      'a\x1b[31mb\r\n\\c',
    );
    const utf8 = Buffer.from('héllo ❯', 'utf8');
    expect(unescapeOutput(utf8).toString('utf8')).toBe('héllo ❯');
    // A backslash not followed by three octal digits is kept as it is.
    expect(unescapeOutput(bytes('\\9x\\01')).toString('latin1')).toBe('\\9x\\01');
  });

  it('splits output, its own replies and notices, with lines cut anywhere between chunks', () => {
    const stream = bytes(
      [
        '%begin 1700000000 10 0', // the attach: not this client's command
        '%end 1700000000 10 0',
        '%session-changed $0 main',
        '%output %3 hi\\015\\012',
        '%begin 1700000000 11 1',
        'line one',
        '%end 1700000000 99 1', // a line of the reply that looks like an end, of another block
        '',
        '%end 1700000000 11 1',
        '%begin 1700000000 12 1',
        "can't find pane: %9",
        '%error 1700000000 12 1',
        '%extended-output %3 120 : late\\033[0m',
        '%layout-change @1 abc,80x24,0,0,1 abc,80x24,0,0,1 *',
        '%exit detached',
        '',
      ].join('\n'),
    );
    const reader = new ControlModeReader();
    const messages = [];
    for (let at = 0; at < stream.length; at += 7) {
      messages.push(...reader.feed(stream.subarray(at, at + 7)));
    }
    expect(
      messages.map((message) =>
        message.kind === 'output'
          ? { ...message, data: message.data.toString('latin1') }
          : message.kind === 'reply'
            ? { ...message, lines: message.lines.map((line) => line.toString()) }
            : message,
      ),
    ).toEqual([
      { kind: 'notice', name: 'session-changed', args: '$0 main' },
      { kind: 'output', pane: '%3', data: 'hi\r\n' },
      { kind: 'reply', lines: ['line one', '%end 1700000000 99 1', ''], error: false },
      { kind: 'reply', lines: ["can't find pane: %9"], error: true },
      { kind: 'output', pane: '%3', data: 'late\x1b[0m' },
      {
        kind: 'notice',
        name: 'layout-change',
        args: '@1 abc,80x24,0,0,1 abc,80x24,0,0,1 *',
      },
      { kind: 'exit', reason: 'detached' },
    ]);
  });

  it('sends keys as hex bytes, so tmux writes each as it is', () => {
    expect(hexKeys(Buffer.from('\x1b[A\x03é', 'utf8'))).toEqual([
      '1b',
      '5b',
      '41',
      '03',
      'c3',
      'a9',
    ]);
  });
});

describe('terminal snapshots', () => {
  const view: PaneView = {
    pane: '%3',
    cols: 20,
    rows: 4,
    cursorX: 5,
    cursorY: 2,
    cursorVisible: true,
    cursorKeys: true,
    keypad: false,
    alternate: false,
    mouseModes: [1000, 1006],
  };

  it('reads the pane view tmux prints, and nothing else', () => {
    expect(snapshotCommand('=s:', 100)).toMatch(
      /^display-message -p -t =s: '#\{pane_id\}.*' ; capture-pane -p -e -S -100 -t =s:$/,
    );
    expect(parsePaneView('%3 20 4 5 2 1 1 0 0 1 0 0 1')).toEqual(view);
    expect(parsePaneView('%3 20 4 5 2 1 1 0 0 1 0 0')).toBeNull();
    expect(parsePaneView('3 20 4 5 2 1 1 0 0 1 0 0 1')).toBeNull();
    expect(parsePaneView('%3 20 x 5 2 1 1 0 0 1 0 0 1')).toBeNull();
  });

  /** What a terminal shows after being fed `data`, row by row. */
  async function render(data: string, cols: number, rows: number) {
    const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
    term.write('garbage that the snapshot must clear\r\n\x1b[31mstill red');
    await new Promise<void>((resolve) => term.write(data, resolve));
    const buffer = term.buffer.active;
    const screen = Array.from(
      { length: rows },
      (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '',
    );
    const history = Array.from(
      { length: buffer.viewportY },
      (_, y) => buffer.getLine(y)?.translateToString(true) ?? '',
    );
    const cell = buffer.getLine(buffer.viewportY)?.getCell(0);
    const state = { cursor: [buffer.cursorX, buffer.cursorY], screen, history, cell, term };
    return state;
  }

  it('repaints history, screen, colours, cursor and modes over whatever was there', async () => {
    const lines = ['old 1', 'old 2', '\x1b[32mgreen\x1b[39m top', 'middle', 'cursor here', ''];
    const data = snapshotData(view, lines);
    const { cursor, screen, history, cell, term } = await render(data, 20, 4);
    expect(history).toEqual(['old 1', 'old 2']);
    expect(screen).toEqual(['green top', 'middle', 'cursor here', '']);
    expect(cursor).toEqual([5, 2]);
    expect(cell?.getFgColor()).toBe(2);
    expect(term.modes.applicationCursorKeysMode).toBe(true);
    expect(term.modes.mouseTrackingMode).toBe('vt200');
  });

  it('draws only the screen on the alternate screen', async () => {
    const data = snapshotData({ ...view, alternate: true, mouseModes: [] }, [
      'history',
      'a',
      'b',
      'c',
      'd',
    ]);
    const { screen, history, term } = await render(data, 20, 4);
    expect(screen).toEqual(['a', 'b', 'c', 'd']);
    expect(history).toEqual([]);
    expect(term.buffer.active.type).toBe('alternate');
    expect(term.modes.mouseTrackingMode).toBe('none');
  });
});

describe('a terminal viewer', () => {
  const output = (data: string): TerminalChunk => ({
    kind: 'OUTPUT',
    data,
    cols: 80,
    rows: 24,
    reason: null,
  });
  const snapshot = (data: string, reason: TerminalChunk['reason'] = 'FIRST'): TerminalChunk => ({
    kind: 'SNAPSHOT',
    data,
    cols: 80,
    rows: 24,
    reason,
  });

  it('drops output until its snapshot, then joins what waits into one chunk', async () => {
    const viewer = new TerminalViewer(100, () => {});
    expect(viewer.push(output('before'))).toBe(true);
    viewer.push(snapshot('screen'));
    viewer.push(output(' a'));
    viewer.push(output(' b'));
    expect(await viewer.next()).toEqual({ done: false, value: snapshot('screen a b') });
    const waiting = viewer.next();
    viewer.push(output('c'));
    expect(await waiting).toEqual({ done: false, value: output('c') });
  });

  it('past its bound, drops what it holds and waits for a BEHIND snapshot', async () => {
    const viewer = new TerminalViewer(10, () => {});
    // A snapshot is never what makes it fall behind, however large.
    viewer.push(snapshot('x'.repeat(50)));
    expect(viewer.push(output('12345'))).toBe(true);
    expect(viewer.push(output('123456'))).toBe(false);
    expect(viewer.awaiting).toBe('BEHIND');
    expect(viewer.push(output('dropped'))).toBe(true);
    viewer.push(snapshot('fresh', 'BEHIND'));
    expect(await viewer.next()).toEqual({ done: false, value: snapshot('fresh', 'BEHIND') });
  });

  it('ends a waiting reader, tells its watch once, and fails with an error', async () => {
    const left: TerminalViewer[] = [];
    const viewer = new TerminalViewer(10, (gone) => left.push(gone));
    const waiting = viewer.next();
    await viewer.return();
    viewer.end();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(left).toEqual([viewer]);

    const failing = new TerminalViewer(10, () => {});
    const pending = failing.next();
    failing.fail(new Error('the pane is gone'));
    await expect(pending).rejects.toThrow('the pane is gone');
    await expect(failing.next()).rejects.toThrow('the pane is gone');
  });
});

describe('attention raised', () => {
  const session = (id: string) => ({ id }) as SessionRecord;
  const item = (id: string, reason: AttentionItem['reason'], since: number, request?: string) =>
    ({
      session: session(id),
      reason,
      since,
      permissionRequest: request ? ({ id: request } as PermissionRecord) : null,
    }) as AttentionItem;

  it('is what a change added: a new request, a new turn ended, a new reason', () => {
    const before = [item('a', 'PERMISSION', 5, 'r1'), item('b', 'IDLE', 10)];
    const after = [
      item('a', 'PERMISSION', 5, 'r1'),
      item('c', 'PERMISSION', 12, 'r2'),
      item('b', 'IDLE', 20),
      item('d', 'CRASHED', 30),
    ];
    expect(raisedItems(before, after).map((raised) => raised.session.id)).toEqual(['c', 'b', 'd']);
    expect(raisedItems(after, after)).toEqual([]);
    // Items that left raise nothing.
    expect(raisedItems(after, after.slice(2))).toEqual([]);
  });
});

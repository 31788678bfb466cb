import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HeadlessRuntime, type StreamLine } from '../../src/runtime/headless-runtime.js';
import type { RuntimeSession } from '../../src/runtime/session-runtime.js';

/** A stand-in for claude -p: prints a line that is not JSON, then echoes each stdin line. */
function fakeClaude(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cch-headless-unit-'));
  const bin = path.join(dir, 'claude');
  writeFileSync(
    bin,
    '#!/bin/sh\necho "starting up"\nwhile IFS= read -r line; do printf "%s\\n" "$line"; done\n',
  );
  chmodSync(bin, 0o755);
  return bin;
}

describe('the headless runtime', () => {
  it('passes on every line claude prints, JSON or not, and submits typed text as a user line', async () => {
    const lines: StreamLine[] = [];
    const runtime = new HeadlessRuntime({
      output: (_id, line) => lines.push(line),
      stopTimeoutMs: 1000,
    });
    const record: RuntimeSession = {
      id: 's1',
      cwd: tmpdir(),
      runtime: 'HEADLESS',
      tmuxSession: 'unused',
      claudeSessionId: 's1',
      origin: 'MANAGED',
      pane: null,
      pid: null,
      ended: false,
    };
    await runtime.launch({
      record,
      env: { PATH: process.env.PATH ?? '' },
      claude: { claudeBin: fakeClaude(), sessionId: 's1', settingsPath: '/dev/null' },
      inPlace: false,
    });
    await runtime.type(record, 'two\nlines', 'prompt');
    expect(await runtime.look(record)).toEqual({
      dialog: null,
      inputText: 'two\nlines',
      turnRunning: false,
    });
    await runtime.keys(record, ['Enter']);
    expect((await runtime.look(record)).inputText).toBe('');
    await vi.waitFor(() => expect(lines).toHaveLength(2), { timeout: 5000, interval: 20 });
    expect(lines[0]).toEqual({ text: 'starting up', message: undefined });
    expect(lines[1]!.message).toEqual({
      type: 'user',
      message: { role: 'user', content: 'two\nlines' },
    });
    await expect(runtime.keys(record, ['Escape'])).rejects.toMatchObject({
      code: 'KEY_NOT_ALLOWED',
    });

    // A prompt claude would run as a command goes as two text blocks, the last without the slash;
    // a command goes as typed; headless claude has no shell mode.
    await runtime.type(record, '/clear the cache', 'prompt');
    await runtime.keys(record, ['Enter']);
    await runtime.type(record, '/compact', 'command');
    await runtime.keys(record, ['Enter']);
    await vi.waitFor(() => expect(lines).toHaveLength(4), { timeout: 5000, interval: 20 });
    expect(lines[2]!.message).toEqual({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: '/' },
          { type: 'text', text: 'clear the cache' },
        ],
      },
    });
    expect(lines[3]!.message).toEqual({
      type: 'user',
      message: { role: 'user', content: '/compact' },
    });
    await expect(runtime.type(record, 'ls', 'shell')).rejects.toMatchObject({
      code: 'NO_TERMINAL',
    });

    await runtime.stop(record);
    expect((await runtime.look(record)).inputText).toBeNull();
    await expect(runtime.type(record, 'late', 'prompt')).rejects.toMatchObject({
      code: 'SESSION_NOT_RUNNING',
    });
  });
});

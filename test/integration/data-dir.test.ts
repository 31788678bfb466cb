import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHubCommand } from '../helpers/hub-process.js';
import { startHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

const parent = tempDir('cch-datadir-');

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);
const privateFiles = ['hub.db', 'hub.db-wal', 'hub.db-shm', 'tmux.conf'];

describe("the data dir's files", () => {
  it('are 0600 after a start, those an older hub left 0644 too', async () => {
    const dataDir = path.join(parent, 'own');
    const first = await startHub({ dataDir });
    expect(
      Object.fromEntries(privateFiles.map((name) => [name, modeOf(path.join(dataDir, name))])),
    ).toEqual({ 'hub.db': '600', 'hub.db-wal': '600', 'hub.db-shm': '600', 'tmux.conf': '600' });
    expect(modeOf(dataDir)).toBe('700');
    expect(first.logs.join('')).not.toContain('the data dir is open to other users');
    await first.stop();

    for (const name of ['hub.db', 'tmux.conf']) chmodSync(path.join(dataDir, name), 0o644);
    await startHub({ dataDir });
    expect(privateFiles.map((name) => modeOf(path.join(dataDir, name)))).toEqual([
      '600',
      '600',
      '600',
      '600',
    ]);
  });

  it('are kept private in a data dir others may read, with a warning that says so', async () => {
    const dataDir = path.join(parent, 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const hub = await startHub({ dataDir });
    const warnings = hub.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.level === 'warn');
    expect(warnings).toContainEqual(
      expect.objectContaining({
        dataDir,
        mode: '0755',
        msg: 'the data dir is open to other users (it holds the hook token and every event): chmod 700 it',
      }),
    );
    expect(privateFiles.map((name) => modeOf(path.join(dataDir, name)))).toEqual([
      '600',
      '600',
      '600',
      '600',
    ]);
    // The person's folder keeps the mode they gave it.
    expect(modeOf(dataDir)).toBe('755');
  });
});

describe('a hub.db of 0 bytes', () => {
  it('is refused with one line and exit 2, and left as it is', async () => {
    const dataDir = path.join(parent, 'truncated');
    mkdirSync(dataDir, { mode: 0o700 });
    const file = path.join(dataDir, 'hub.db');
    writeFileSync(file, '');
    const result = await runHubCommand([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--tmux-socket',
      `cch-empty-${process.pid}`,
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `claude-code-hub: ${file} is empty (0 bytes), so something truncated it: restore it from a backup, or delete it to start with an empty store`,
    );
    expect(result.stdout).toBe('');
    expect(statSync(file).size).toBe(0);
  });
});

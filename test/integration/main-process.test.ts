import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { firstLine } from '../../harness/ready-line.js';
import { runHubCommand } from '../helpers/hub-process.js';

const root = new URL('../..', import.meta.url).pathname;
const dataDir = mkdtempSync(path.join(tmpdir(), 'cch-main-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start', () => {
  it('prints one ready line, serves GraphQL, and shuts down cleanly on SIGTERM', async () => {
    // Started the way `npm start` starts it, without npm in between so the signal reaches it.
    const hub = execa(
      'node',
      [
        '--import',
        'tsx',
        'src/main.ts',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--tmux-socket',
        `cch-main-${process.pid}`,
      ],
      {
        cwd: root,
        reject: false,
      },
    );
    const line = await firstLine(hub);
    const match = /^claude-code-hub listening on (http:\/\/127\.0\.0\.1:\d+\/graphql)\n$/.exec(
      line,
    );
    expect(match).not.toBeNull();
    const response = await fetch(match![1]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ sessions { id } }' }),
    });
    expect(await response.json()).toEqual({ data: { sessions: [] } });
    const graphiql = await fetch(match![1]!, { headers: { accept: 'text/html' } });
    expect(graphiql.headers.get('content-type')).toMatch(/text\/html/);
    expect(await graphiql.text()).toContain('claude-code-hub');
    hub.kill('SIGTERM');
    const result = await hub;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(line.trimEnd());
    expect(result.stderr).toContain(
      'no tokens configured: loopback only, and every local client has the admin scope',
    );
  });

  it('starts from `npm start`, which compiles to dist/ first', async () => {
    // Its own process group, so the signal reaches the hub behind npm and the shell.
    const hub = execa(
      'npm',
      [
        'start',
        '--silent',
        '--',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--tmux-socket',
        `cch-npm-${process.pid}`,
      ],
      {
        cwd: root,
        reject: false,
        detached: true,
      },
    );
    const line = await firstLine(hub);
    expect(line).toMatch(/^claude-code-hub listening on http:\/\/127\.0\.0\.1:\d+\/graphql\n$/);
    process.kill(-hub.pid!, 'SIGTERM');
    await hub;
  });

  it.each([
    [
      ['--port', 'nine'],
      'claude-code-hub: --port must be a port number from 0 to 65535, got "nine"',
    ],
    [['--colour'], 'claude-code-hub: unknown option "--colour" (see --help)'],
    [
      ['--host', '0.0.0.0'],
      'claude-code-hub: refusing to listen on 0.0.0.0 without tokens: set --token or --tokens-file, or listen on 127.0.0.1',
    ],
  ])('exits 2 with a one-line error for %j', async (args, message) => {
    const result = await execa('npm', ['start', '--silent', '--', ...args], {
      cwd: root,
      reject: false,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n').filter((l) => l.startsWith('claude-code-hub'))).toEqual([
      message,
    ]);
    expect(result.stdout).toBe('');
  });

  it('exits 1 naming the entry when the tokens file is wrong', async () => {
    const file = path.join(dataDir, 'tokens.json');
    writeFileSync(file, JSON.stringify([{ name: 'bot', scope: 'root', sha256: 'ab' }]));
    const result = await runHubCommand([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--tokens-file',
      file,
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `claude-code-hub: tokens file ${file}, entry 0: scope must be one of read, control, approve, admin, hook`,
    );
  });

  it('exits 1 with a clear error when the data dir cannot be used', async () => {
    const result = await execa(
      'npm',
      ['start', '--silent', '--', '--port', '0', '--data-dir', '/etc/hostname/data'],
      { cwd: root, reject: false },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/claude-code-hub: cannot use data dir \/etc\/hostname\/data: /);
  });
});

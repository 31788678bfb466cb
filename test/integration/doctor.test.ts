import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { probeDataDir } from '../../src/cli/doctor-probe.js';
import { checkDataDir, formatFinding } from '../../src/cli/doctor.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

const root = new URL('../..', import.meta.url).pathname;
/** The CLI pinned in devDependencies, whose version doctor must report as tested. */
const pinned = (
  JSON.parse(
    readFileSync(
      new URL('node_modules/@anthropic-ai/claude-code/package.json', `file://${root}`),
      'utf8',
    ),
  ) as { version: string }
).version;

describe('claude-code-hub doctor, run as the bin against a real hub', () => {
  const temp = tempDir('cch-doctor-');
  const home = path.join(temp, 'home');
  const configDir = path.join(temp, 'claude-config');
  const dataDir = path.join(temp, 'data');
  let hub: TestHub;

  beforeAll(async () => {
    for (const dir of [home, configDir]) mkdirSync(dir);
    mkdirSync(dataDir, { mode: 0o700 });
    hub = await startHub({ dataDir });
  });

  /**
   * `claude-code-hub doctor` started the way the bin starts, with only the environment given
   * here: a home and a Claude config dir of its own, so nothing of this machine's is read.
   */
  const doctor = (env: Record<string, string>) =>
    execa(process.execPath, ['--import', 'tsx', 'src/main.ts', 'doctor'], {
      cwd: root,
      reject: false,
      stdin: 'ignore',
      extendEnv: false,
      env: {
        HOME: home,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_API_KEY: 'sk-ant-test-doctor-0123456789',
        CLAUDE_HUB_URL: hub.url,
        CLAUDE_HUB_DATA_DIR: dataDir,
        NO_COLOR: '1',
        ...env,
      },
    });

  const readyChecks = async () => {
    const body = (await (await fetch(`${hub.baseUrl}/readyz`)).json()) as {
      checks: Record<string, boolean>;
    };
    return Object.keys(body.checks).join(', ');
  };

  it('passes every check with the pinned claude and a running hub, and exits 0', async () => {
    const result = await doctor({ PATH: process.env.PATH!, CLAUDE_HUB_CLAUDE_BIN: claudeBin });
    const lines = result.stdout.split('\n');
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatch(new RegExp(`^✓ Node ${process.versions.node.replaceAll('.', '\\.')}`));
    expect(lines[1]).toMatch(/^✓ tmux \d+\.\d+\w*$/);
    expect(lines[2]).toMatch(/^✓ curl \d+\.\d+\.\d+$/);
    expect(lines.slice(3)).toEqual([
      `✓ claude ${pinned} (tested) at ${claudeBin}`,
      '✓ login: ANTHROPIC_API_KEY is set',
      `✓ data dir ${dataDir} (0700, hub.db 0600)`,
      '✓ tokens: none; the hub serves loopback only, and every local client is admin',
      `✓ hub at ${hub.baseUrl}: ready (${await readyChecks()})`,
      `✓ global hooks: not installed in ${configDir}/settings.json; only sessions the hub starts report to it (claude-code-hub hooks install adds every claude)`,
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('with a PATH that holds only node and claude, says tmux is missing and exits 1', async () => {
    const bin = path.join(temp, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, path.join(bin, 'node'));
    symlinkSync(claudeBin, path.join(bin, 'claude'));
    const result = await doctor({ PATH: bin });
    const lines = result.stdout.split('\n');
    expect(lines).toContain('✗ tmux: not found — apt-get install -y tmux');
    expect(lines).toContain(
      '✗ curl: not found; the SessionStart hook posts through it, so the hub never sees a session start — apt-get install -y curl',
    );
    // claude found on that PATH, where the hub would find it.
    expect(lines).toContain(`✓ claude ${pinned} (tested) at ${bin}/claude`);
    expect(lines).toContain(`✓ hub at ${hub.baseUrl}: ready (${await readyChecks()})`);
    expect(result.exitCode).toBe(1);
  });

  it('reports installed hooks and their hub; with the hub gone, warns of both and exits 0', async () => {
    const installed = await hub.data<{ installHooks: { events: string[]; url: string } }>(
      'mutation ($dir: String) { installHooks(scope: USER, dir: $dir) { events url } }',
      { dir: configDir },
    );
    const { events, url } = installed.installHooks;
    const env = { PATH: process.env.PATH!, CLAUDE_HUB_CLAUDE_BIN: claudeBin };
    const hooksLine = `global hooks: ${events.length} events in ${configDir}/settings.json post to ${url}`;
    expect((await doctor(env)).stdout.split('\n').at(-1)).toBe(
      `✓ ${hooksLine}, where a hub answers`,
    );

    await hub.stop();
    const result = await doctor(env);
    const lines = result.stdout.split('\n');
    expect(lines.slice(-2)).toEqual([
      `! hub: nothing answers at ${hub.baseUrl} (ECONNREFUSED) — start it (claude-code-hub serve), or point --url / CLAUDE_HUB_URL at the hub`,
      `! ${hooksLine}, where no hub answers — start the hub there, or run claude-code-hub hooks install with the hub up to point them at it`,
    ]);
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('finds a hub.db of 0 bytes, which the hub refuses, in a real data dir', () => {
    const dir = path.join(temp, 'truncated');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(path.join(dir, 'hub.db'), '', { mode: 0o600 });
    expect(checkDataDir(probeDataDir(dir)).map((finding) => formatFinding(finding))).toEqual([
      `✗ data dir ${dir}: hub.db is empty (0 bytes), so the hub refuses to start — restore it from a backup, or delete it to start with an empty store`,
      `! data dir ${dir}: open to other users (0755); it holds the hook token and every event — chmod 700 ${dir}`,
    ]);
  });
});

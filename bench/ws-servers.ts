/**
 * The `ws-server` section: the hub's graphql-ws server against graphql-ws' own (`useServer`),
 * side by side in one run (`--graphql-ws-server hub|library`). Each round starts a fresh
 * compiled hub of each kind, alternated, with one session, and measures on it the fan-out row
 * that loads the server most (100 subscribers of one session at 2,000 events/s) and the replay
 * of a long session.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { wsServerKinds } from '../src/config/index.js';
import { freePort } from '../harness/free-port.js';
import { gqlData } from '../harness/graphql-http.js';
import { hubArgs, spawnHub, stopHub, type HubProcess } from '../harness/hub-process.js';
import { hookSecret } from '../harness/session-secret.js';
import type { BenchWorld } from './claude-world.js';
import { fanout } from './fanout.js';
import { HookClient } from './hook-client.js';
import { replay } from './replay.js';
import type { Row } from './row.js';

export async function wsServers(
  world: BenchWorld,
  options: { readonly rounds: number; readonly seconds: number; readonly events: number },
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const kind of wsServerKinds) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cch-bench-ws-'));
      const socket = `cch-bench-ws-${process.pid}-${kind}`;
      let hub: HubProcess | null = null;
      let hooks: HookClient | undefined;
      try {
        const args = hubArgs({ port: await freePort(), dataDir, socket });
        hub = await spawnHub(
          [...args, '--graphql-ws-server', kind, '--retain-events', '0', '--stop-sessions-on-exit'],
          world.env,
          { compiled: true },
        );
        const { createSession } = await gqlData(
          hub.url,
          'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }',
          { cwd: world.makeCwd() },
        );
        const target = {
          id: createSession.id as string,
          secret: await hookSecret(socket, createSession.tmuxSession as string),
        };
        const base = hub.url.replace(/\/graphql$/, '');
        hooks = new HookClient(base);
        const benchHub = { url: hub.url, base, pid: hub.process.pid!, socket, hooks };
        const measured = [
          ...(await fanout(benchHub, {
            live: [target],
            subscribers: [100],
            sessions: [1],
            withLibrary: false,
            seconds: options.seconds,
          })),
          ...(await replay(benchHub, { target, events: options.events })),
        ];
        for (const row of measured) {
          rows.push({
            section: 'graphql-ws server A/B',
            metric: `${kind}, round ${round}: ${row.section === 'replay' ? 'replay ' : ''}${row.metric}`,
            value: row.value,
          });
        }
      } finally {
        hooks?.close();
        await stopHub(hub, { socket, dataDir });
      }
    }
  }
  return rows;
}

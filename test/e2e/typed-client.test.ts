import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../examples/run-task.js';
import { HubClient } from '../../src/cli/client.js';
import type { SessionRuntime } from '../../src/gql/graphql.js';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';

describe('one typed client, either runtime', () => {
  const suite = claudeHubSuite();

  it.each<SessionRuntime>(['TMUX', 'HEADLESS'])(
    'runs a task that needs a permission on a %s session, and reads its one result',
    async (runtime) => {
      const client = new HubClient(suite.hub.url, undefined);
      const file = path.join(suite.world.makeUntrustedCwd(), `made-by-${runtime}`);
      const asked: string[] = [];
      const result = await runTask(client, {
        cwd: suite.world.makeCwd(),
        runtime,
        prompt: `run: touch ${file} && echo made`,
        decide: (toolName, toolInput) => {
          asked.push(`${toolName} ${(toolInput as { command: string }).command}`);
          return 'ALLOW';
        },
      });
      expect(result).toMatchObject({
        runtime,
        decisions: ['Bash: ALLOW'],
        turn: {
          number: 1,
          status: 'COMPLETED',
          ok: true,
          answer: 'ran: made',
          error: null,
          resume: `claude --resume ${result.sessionId}`,
          actions: [{ kind: 'COMMAND', title: `touch ${file} && echo made`, ok: true }],
        },
      });
      expect(asked).toEqual([`Bash touch ${file} && echo made`]);
      expect(existsSync(file)).toBe(true);
      expect((result.turn.usage as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
      // claude's headless stream reports what a turn cost; a TMUX turn is costed at the prices.
      expect(result.turn.costUsd).toBeGreaterThan(0);
      const { session } = await suite.hub.data(`query($id: ID!) { session(id: $id) { status } }`, {
        id: result.sessionId,
      });
      expect(session.status).toBe('STOPPED');
    },
  );
});

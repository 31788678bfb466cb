/**
 * An orchestrator on the typed client (operations typed by `npm run codegen`): starts a session
 * on either runtime, gives it one task, answers its permission requests, and returns the
 * turn's one result. The same code drives a TMUX and a HEADLESS session.
 *
 *   node --import tsx examples/run-task.ts [--headless] [--deny] <cwd> <task>
 *
 * It reads the hub's address and token from CLAUDE_HUB_URL and CLAUDE_HUB_TOKEN, as the command line does.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { HubClient } from '../src/cli/client.js';
import { graphql } from '../src/gql/index.js';
import type {
  PermissionBehavior,
  RunTaskTurnsSubscription,
  SessionRuntime,
} from '../src/gql/graphql.js';

const CreateSession = graphql(`
  mutation RunTaskCreate($input: CreateSessionInput!) {
    createSession(input: $input) {
      id
      runtime
      createdAt
    }
  }
`);

const SendMessage = graphql(`
  mutation RunTaskSend($id: ID!, $text: String!) {
    sendMessage(sessionId: $id, text: $text) {
      id
    }
  }
`);

const PermissionRequests = graphql(`
  subscription RunTaskRequests {
    permissionRequests(pending: true) {
      id
      sessionId
      status
      toolName
      toolInput
    }
  }
`);

const DecidePermission = graphql(`
  mutation RunTaskDecide($input: DecidePermissionInput!) {
    decidePermission(input: $input) {
      error {
        code
        message
      }
    }
  }
`);

const Turns = graphql(`
  subscription RunTaskTurns($id: ID!, $after: DateTime) {
    turns(sessionId: $id, after: $after) {
      number
      status
      ok
      answer
      error
      costUsd
      usage
      durationMs
      resume
      actions {
        kind
        title
        ok
      }
    }
  }
`);

const StopSession = graphql(`
  mutation RunTaskStop($id: ID!) {
    stopSession(id: $id) {
      status
    }
  }
`);

export type Turn = RunTaskTurnsSubscription['turns'];

export interface Task {
  readonly cwd: string;
  readonly runtime: SessionRuntime;
  readonly prompt: string;
  /** What to answer each permission request; allow all when absent. */
  readonly decide?: (toolName: string, toolInput: unknown) => PermissionBehavior;
}

export interface TaskResult {
  readonly sessionId: string;
  readonly runtime: SessionRuntime;
  readonly turn: Turn;
  /** The permission requests answered, as `<tool>: <behavior>`. */
  readonly decisions: readonly string[];
}

/** Runs one task in a new session and stops the session; the turn says how it went. */
export async function runTask(client: HubClient, task: Task): Promise<TaskResult> {
  const { createSession: session } = await client.request(CreateSession, {
    input: { cwd: task.cwd, runtime: task.runtime, permissionMode: 'DEFAULT' },
  });
  const done = new AbortController();
  const decisions: string[] = [];
  const deciding = (async () => {
    for await (const { permissionRequests: request } of client.subscribe(
      PermissionRequests,
      {},
      done.signal,
    )) {
      if (request.sessionId !== session.id || request.status !== 'PENDING') continue;
      const behavior = task.decide?.(request.toolName, request.toolInput) ?? 'ALLOW';
      const { decidePermission } = await client.request(DecidePermission, {
        input: { requestId: request.id, behavior, message: 'refused by the orchestrator' },
      });
      if (!decidePermission.error) decisions.push(`${request.toolName}: ${behavior}`);
    }
  })();
  try {
    // Turns completed since the session was created come first: none is missed however late
    // the subscription starts.
    const turns = client.subscribe(Turns, { id: session.id, after: session.createdAt });
    await client.request(SendMessage, { id: session.id, text: task.prompt });
    const { value } = await turns.next();
    await turns.return(undefined);
    if (!value) throw new Error(`session ${session.id} ended before its turn did`);
    return { sessionId: session.id, runtime: session.runtime, turn: value.turns, decisions };
  } finally {
    done.abort();
    await deciding;
    await client.request(StopSession, { id: session.id });
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { headless: { type: 'boolean' }, deny: { type: 'boolean' } },
  });
  const [cwd, prompt] = positionals;
  if (!cwd || !prompt) throw new Error('usage: run-task.ts [--headless] [--deny] <cwd> <task>');
  const client = new HubClient(
    process.env.CLAUDE_HUB_URL ?? 'http://127.0.0.1:4000/graphql',
    process.env.CLAUDE_HUB_TOKEN,
  );
  const result = await runTask(client, {
    cwd,
    prompt,
    runtime: values.headless ? 'HEADLESS' : 'TMUX',
    decide: () => (values.deny ? 'DENY' : 'ALLOW'),
  });
  console.log(JSON.stringify(result, null, 2));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  });
}

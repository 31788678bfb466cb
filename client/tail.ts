/**
 * A small typed client: `npm run tail -- <session-id> [--after N] [--url URL]` prints every hook
 * event of a session as it arrives, using the codegen-typed subscription below. A hub with
 * tokens takes one from CLAUDE_HUB_TOKEN.
 */
import { parseArgs } from 'node:util';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from '../src/gql/index.js';
import type { SessionEventsSubscription } from '../src/gql/graphql.js';

export const SessionEventsDocument = graphql(`
  subscription SessionEvents($id: ID!, $after: Int) {
    sessionEvents(id: $id, after: $after) {
      __typename
      seq
      eventName
      receivedAt
      ... on SessionStartEvent {
        source
        model
      }
      ... on UserPromptSubmitEvent {
        prompt
      }
      ... on PreToolUseEvent {
        toolName
        toolInput
      }
      ... on PostToolUseEvent {
        toolName
        toolResponse
        durationMs
      }
      ... on PermissionRequestEvent {
        toolName
        toolInput
      }
      ... on NotificationEvent {
        message
      }
      ... on StopEvent {
        lastAssistantMessage
      }
      ... on SessionEndEvent {
        reason
      }
    }
  }
`);

type HookEvent = SessionEventsSubscription['sessionEvents'];

/** One readable line per event; the switch is checked against the generated union. */
export function describeEvent(event: HookEvent): string {
  const head = `#${event.seq} ${event.receivedAt} ${event.eventName}`;
  switch (event.__typename) {
    case 'SessionStartEvent':
      return `${head} source=${event.source} model=${event.model}`;
    case 'UserPromptSubmitEvent':
      return `${head} ${JSON.stringify(event.prompt)}`;
    case 'PreToolUseEvent':
    case 'PermissionRequestEvent':
      return `${head} ${event.toolName} ${JSON.stringify(event.toolInput)}`;
    case 'PostToolUseEvent':
      return `${head} ${event.toolName} (${event.durationMs ?? '?'} ms) ${JSON.stringify(event.toolResponse)}`;
    case 'NotificationEvent':
      return `${head} ${JSON.stringify(event.message)}`;
    case 'StopEvent':
      return `${head} ${JSON.stringify(event.lastAssistantMessage)}`;
    case 'SessionEndEvent':
      return `${head} reason=${event.reason}`;
    default:
      return head;
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      after: { type: 'string' },
      url: {
        type: 'string',
        default: process.env.CLAUDE_HUB_URL ?? 'http://127.0.0.1:4000/graphql',
      },
    },
  });
  const [id] = positionals;
  if (!id) {
    process.stderr.write('usage: npm run tail -- <session-id> [--after N] [--url URL]\n');
    process.exit(2);
  }
  const client = createClient({
    url: values.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: process.env.CLAUDE_HUB_TOKEN
      ? { authorization: `Bearer ${process.env.CLAUDE_HUB_TOKEN}` }
      : {},
  });
  const after = values.after === undefined ? null : Number(values.after);
  try {
    for await (const result of client.iterate({
      query: print(SessionEventsDocument),
      variables: { id, after },
    })) {
      if (result.errors) throw new Error(result.errors.map((e) => e.message).join('; '));
      const data = result.data as SessionEventsSubscription | undefined;
      if (data) process.stdout.write(`${describeEvent(data.sessionEvents)}\n`);
    }
  } catch (error) {
    process.stderr.write(`tail: ${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await client.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void main();

import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Hub } from '../hub/hub.js';
import type { TurnIndex } from '../runs/turn-index.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { RuleBook } from '../permissions/rule-book.js';
import { useRefusedMutationAudit } from '../audit/refused-mutations.js';
import { useHubSecurity } from '../auth/hub-security.js';
import type { Tokens } from '../auth/tokens.js';
import type { HubConfig } from '../config/index.js';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import type { GlobalHooks } from '../hooks/global-hooks.js';
import type { Channels } from '../channels/channels.js';
import type { ClaudeFacts } from '../claude/claude-cli.js';
import type { HubContext } from '../schema/context.js';
import { schema } from '../schema/index.js';
import type { AccessGate, ServerContext } from '../auth/access-gate.js';
import { graphiqlPage, useGraphiqlPageHeaders } from '../http/graphiql-page.js';

export type HubYoga = YogaServerInstance<ServerContext, HubContext>;

export interface HubYogaDeps {
  readonly config: HubConfig;
  readonly tokens: Tokens;
  readonly gate: AccessGate;
  /** The hub the schema calls: this process's, until it has joined its cluster. */
  readonly hub: () => Hub;
  readonly audit: AuditLog;
  readonly rules: RuleBook;
  /** The --policy-file's watch; null without one. */
  readonly policyFile: HubContext['policyFile'];
  readonly turns: TurnIndex;
  readonly costs: HubContext['costs'];
  readonly globalHooks: GlobalHooks;
  readonly channels: Channels;
  readonly schedules: HubContext['schedules'];
  /** What is known of the claude the hub's sessions run. */
  readonly claude: () => Promise<ClaudeFacts>;
  readonly log: Logger;
}

/**
 * GraphQL over HTTP and SSE (and, through its envelop, graphql-ws): the schema, its security
 * plugins, CORS for the allowed origins, masked errors, and GraphiQL served from installed files.
 */
export function hubYoga({
  config,
  tokens,
  gate,
  hub,
  audit,
  rules,
  policyFile,
  turns,
  costs,
  globalHooks,
  channels,
  schedules,
  claude,
  log,
}: HubYogaDeps): HubYoga {
  return createYoga<ServerContext, HubContext>({
    schema,
    context: ({ req, principal }): HubContext => {
      if (!principal) throw new HubError(ErrorCode.Unauthenticated, 'not authenticated');
      return {
        hub: hub(),
        audit,
        rules,
        policyFile,
        turns,
        costs,
        globalHooks,
        channels,
        schedules,
        claude,
        principal,
        address: req.socket.remoteAddress ?? '',
      };
    },
    cors: (request) => {
      const origin = request.headers.get('origin');
      if (!origin || !gate.isAllowedOrigin(origin)) return false;
      return {
        origin: [origin],
        methods: ['GET', 'POST'],
        allowedHeaders: ['authorization', 'content-type', 'accept', 'last-event-id'],
        credentials: false,
      };
    },
    maskedErrors: { isDev: false },
    // After the security plugins, so that an error reaches the audit with the code it is sent with.
    plugins: [...useHubSecurity(config), useRefusedMutationAudit(audit), useGraphiqlPageHeaders()],
    // With tokens, subscriptions go over SSE, which carries the Headers pane's Authorization:
    // GraphiQL's graphql-ws client sends those headers neither on the upgrade nor at
    // connection_init.
    graphiql: {
      subscriptionsProtocol: tokens.configured ? 'SSE' : 'WS',
      title: 'claude-code-hub',
    },
    renderGraphiQL: graphiqlPage(),
    landingPage: false,
    logging: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...args: unknown[]) => log.warn(args.map(String).join(' ')),
      error: (...args: unknown[]) => log.error(args.map(String).join(' ')),
    },
  });
}

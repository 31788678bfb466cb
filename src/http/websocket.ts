import type { Server } from 'node:http';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';

/** yoga's enveloped execute and subscribe, carried to graphql-ws in rootValue. */
interface Enveloped {
  readonly execute: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
  readonly subscribe: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
}

/** graphql-ws on the HTTP server at yoga's endpoint, with yoga's plugins (envelop). */
export function graphqlOverWebSocket<T extends object>(
  server: Server,
  yoga: YogaServerInstance<T, object>,
): WebSocketServer {
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args as ExecutionArgs),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args as ExecutionArgs),
      onSubscribe: async (ctx, _id, params) => {
        const enveloped = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        const args = {
          schema: enveloped.schema,
          operationName: params.operationName,
          document: enveloped.parse(params.query),
          variableValues: params.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
        const errors = enveloped.validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wsServer,
  );
  return wsServer;
}

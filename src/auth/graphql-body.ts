import { createGraphQLError, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { maxEnvelopeNesting, nestingRefusal } from '../http/json-nesting.js';

/** The content types yoga reads as a JSON body, matched as yoga matches them. */
const jsonTypes = ['application/json', 'application/graphql+json'];

function isJsonPost(request: Request): boolean {
  if (request.method !== 'POST') return false;
  const type = request.headers.get('content-type')?.split(',')[0];
  return type !== undefined && jsonTypes.some((t) => type === t || type.startsWith(`${t};`));
}

/** A refusal of the body as yoga words its own: status 400, code BAD_REQUEST. */
function badBody(message: string) {
  return createGraphQLError(message, {
    extensions: { http: { spec: true, status: 400 }, code: 'BAD_REQUEST' },
  });
}

/**
 * Reads a GraphQL JSON body as yoga's own parser does, after counting its nesting: past
 * `maxEnvelopeNesting` it is JSON_TOO_DEEP (status 400) without being parsed.
 */
async function parseJsonBody(request: Request): Promise<GraphQLParams> {
  const text = await request.text();
  const tooDeep = nestingRefusal(text, maxEnvelopeNesting, { http: { status: 400 } });
  if (tooDeep) throw tooDeep;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badBody('POST body sent invalid JSON.');
  }
  if (typeof body !== 'object' || body === null) {
    throw badBody(`POST body is expected to be object but received ${String(body)}`);
  }
  return body as GraphQLParams;
}

/**
 * GraphQL bodies over HTTP, bounded in nesting like the hook and MCP bodies: yoga's parser would
 * build every level of a `[[[[…` body with JSON.parse before validation could refuse it.
 */
export function useJsonBodyNesting(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (isJsonPost(request)) setRequestParser(parseJsonBody);
    },
  };
}

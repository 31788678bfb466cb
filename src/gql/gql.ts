/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  subscription SessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n": typeof types.SessionEventsDocument,
};
const documents: Documents = {
    "\n  subscription SessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n": types.SessionEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription SessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;
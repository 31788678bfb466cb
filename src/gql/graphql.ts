/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type SessionEventsSubscriptionVariables = Exact<{
  id: string;
  after?: number | null | undefined;
}>;


export type SessionEventsSubscription = { sessionEvents:
    | { __typename: 'ConfigChangeEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'CwdChangedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'DirectoryAddedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'ElicitationEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'ElicitationResultEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'FileChangedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubEventsMissedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubPermissionResolvedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'InstructionsLoadedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'MessageDisplayEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'NotificationEvent', message: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PermissionDeniedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PermissionRequestEvent', toolName: string | null, toolInput: unknown, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostCompactEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostModelSwitchEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostToolBatchEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostToolUseEvent', toolName: string | null, toolResponse: unknown, durationMs: number | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostToolUseFailureEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreCompactEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreModelSwitchEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreToolUseEvent', toolName: string | null, toolInput: unknown, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SessionEndEvent', reason: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SessionStartEvent', source: string | null, model: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SetupEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'StopEvent', lastAssistantMessage: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'StopFailureEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SubagentStartEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SubagentStopEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'TaskCompletedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'TaskCreatedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'TeammateIdleEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'UnknownHookEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'UserPromptExpansionEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'UserPromptSubmitEvent', prompt: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'WorktreeCreateEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'WorktreeRemoveEvent', seq: number, eventName: string, receivedAt: string }
   };


export const SessionEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SessionEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"eventName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionStartEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserPromptSubmitEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prompt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PreToolUseEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PostToolUseEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolResponse"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequestEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StopEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionEndEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]} as unknown as DocumentNode<SessionEventsSubscription, SessionEventsSubscriptionVariables>;
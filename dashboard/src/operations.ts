/**
 * Every operation the dashboard sends. `npm run codegen` types them into src/gql; names start
 * with Dashboard because operation names must be unique across all the clients it reads.
 */
import { graphql } from '../../src/gql/index.js';

/**
 * What changes in a session's life: all that sessionUpdates sends (HubState.updateSession puts
 * it over the rest, which a dashboard of a busy fleet would otherwise get again with each change).
 */
export const SessionStateFields = graphql(`
  fragment SessionStateFields on Session {
    id
    name
    model
    permissionMode
    status
    blockedReason
    error
    attachCommand
    lastEventAt
    restartCount
    node
    tmuxPane
    costUsd
    limitedUntil
  }
`);

/** A session whole: its state, and what it keeps from its start. */
export const SessionFields = graphql(`
  fragment SessionFields on Session {
    ...SessionStateFields
    cwd
    runtime
    createdAt
    origin
    parent {
      id
      name
    }
  }
`);

export const PermissionFields = graphql(`
  fragment PermissionFields on PermissionRequest {
    id
    sessionId
    toolName
    toolInput
    status
    requestedAt
    message
    decidedBy
    explanation
  }
`);

export const AttentionFields = graphql(`
  fragment AttentionFields on AttentionItem {
    reason
    since
    lastAssistantMessage
    dialog
    session {
      id
      name
      blockedReason
      error
      budgetHold {
        scope
        key
        usd
        spentUsd
      }
    }
    permissionRequest {
      id
      toolName
      toolInput
    }
  }
`);

export const OverviewQuery = graphql(`
  query DashboardOverview {
    sessions {
      ...SessionFields
    }
    permissionRequests(status: PENDING) {
      ...PermissionFields
    }
  }
`);

/**
 * The whole attention queue once, then what each change raised and cleared: with a thousand
 * sessions waiting, the queue is not sent again on every change.
 */
export const AttentionSubscription = graphql(`
  subscription DashboardAttention {
    attention(onlyChanges: true) {
      whole
      items {
        ...AttentionFields
      }
      raised {
        ...AttentionFields
      }
      cleared {
        reason
        since
        session {
          id
        }
        permissionRequest {
          id
        }
      }
    }
  }
`);

export const ScreenQuery = graphql(`
  query DashboardScreen($id: ID!) {
    session(id: $id) {
      id
      screen
    }
  }
`);

/** The sessions changed, a batch at most every 50 ms: a fleet's changes in a few messages a second. */
export const SessionUpdatesSubscription = graphql(`
  subscription DashboardSessionUpdates {
    sessionUpdateBatches(everyMs: 50) {
      ...SessionStateFields
    }
  }
`);

/** A session the page hears of first from an update, whole. */
export const SessionQuery = graphql(`
  query DashboardSession($id: ID!) {
    session(id: $id) {
      ...SessionFields
    }
  }
`);

export const PermissionRequestsSubscription = graphql(`
  subscription DashboardPermissionRequests {
    permissionRequests {
      ...PermissionFields
    }
  }
`);

export const SessionEventsSubscription = graphql(`
  subscription DashboardSessionEvents($id: ID!, $after: Int) {
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
      ... on PermissionRequestEvent {
        toolName
        toolInput
      }
      ... on HubPermissionResolvedEvent {
        toolName
        status
        message
        decidedBy
        explanation
      }
      ... on HubStopRefusedEvent {
        rule
        reason
        explanation
      }
      ... on PermissionDeniedEvent {
        toolName
        reason
      }
      ... on MessageDisplayEvent {
        messageId
        index
        delta
        final
      }
      ... on NotificationEvent {
        message
      }
      ... on StopEvent {
        lastAssistantMessage
      }
      ... on StopFailureEvent {
        error
        lastAssistantMessage
      }
      ... on SubagentStopEvent {
        agentType
        lastAssistantMessage
      }
      ... on SessionEndEvent {
        reason
      }
      ... on HubEventsMissedEvent {
        stepCount
        turnOver
      }
      ... on ChannelMessageEvent {
        channel
        text
        channelSeq
      }
      ... on StreamMessageEvent {
        type
        line: message
      }
    }
  }
`);

/** Every phase of the session's tool calls; the timeline shows them instead of the tool events. */
export const SessionActionsSubscription = graphql(`
  subscription DashboardSessionActions($id: ID!, $after: Int) {
    sessionActions(id: $id, after: $after) {
      id
      seq
      kind
      phase
      title
      toolName
      ok
      detail
      startedAt
      completedAt
      durationMs
    }
  }
`);

/** The session's turns as they complete, for their summary rows (prompt and answer are events). */
export const TurnsSubscription = graphql(`
  subscription DashboardTurns($sessionId: ID!, $after: DateTime) {
    turns(sessionId: $sessionId, after: $after) {
      id
      number
      status
      error
      usage
      costUsd
      costSource
      resume
      completedAt
      durationMs
    }
  }
`);

/**
 * The files one turn changed, with their diffs and who allowed each call. The hub runs git for
 * it, so it is asked for one turn, when a person opens that turn's changes, never in a stream.
 */
export const TurnChangesQuery = graphql(`
  query DashboardTurnChanges($id: ID!) {
    turn(id: $id) {
      id
      changes {
        path
        oldPath
        kind
        diff
        truncated
        actions {
          id
          kind
          toolName
          title
        }
        approvedBy {
          kind
          toolUseId
          token
          rule
          mode
          requestId
          decidedAt
        }
      }
    }
  }
`);

/** The session's pane as tmux draws it: a SNAPSHOT, then every OUTPUT; ends with its tmux session. */
export const SessionTerminalSubscription = graphql(`
  subscription DashboardSessionTerminal($id: ID!) {
    sessionTerminal(id: $id) {
      kind
      data
      cols
      rows
      reason
    }
  }
`);

export const CreateSessionMutation = graphql(`
  mutation DashboardCreateSession($input: CreateSessionInput!) {
    createSession(input: $input) {
      ...SessionFields
    }
  }
`);

export const EnqueueMessageMutation = graphql(`
  mutation DashboardEnqueueMessage($sessionId: ID!, $text: String!) {
    enqueueMessage(sessionId: $sessionId, text: $text) {
      id
      status
      error
    }
  }
`);

export const AskMutation = graphql(`
  mutation DashboardAsk($sessionId: ID!, $text: String!) {
    ask(sessionId: $sessionId, text: $text) {
      __typename
      ... on AskReply {
        reply
        durationMs
      }
      ... on AskTimeout {
        waitedMs
        message {
          status
        }
      }
      ... on AskFailed {
        message {
          error
        }
      }
    }
  }
`);

export const DecidePermissionMutation = graphql(`
  mutation DashboardDecidePermission($input: DecidePermissionInput!) {
    decidePermission(input: $input) {
      request {
        ...PermissionFields
      }
      error {
        code
        message
      }
    }
  }
`);

export const StopSessionMutation = graphql(`
  mutation DashboardStopSession($id: ID!) {
    stopSession(id: $id) {
      ...SessionFields
    }
  }
`);

export const ResumeSessionMutation = graphql(`
  mutation DashboardResumeSession($id: ID!) {
    resumeSession(id: $id) {
      ...SessionFields
    }
  }
`);

export const InterruptSessionMutation = graphql(`
  mutation DashboardInterruptSession($id: ID!) {
    interruptSession(id: $id) {
      ...SessionFields
    }
  }
`);

export const SendKeysMutation = graphql(`
  mutation DashboardSendKeys($sessionId: ID!, $keys: [String!]!) {
    sendKeys(sessionId: $sessionId, keys: $keys) {
      ...SessionFields
      screen
    }
  }
`);

/** A person's keys (or one paste), byte for byte, into the session's terminal. */
export const SendTerminalInputMutation = graphql(`
  mutation DashboardSendTerminalInput($sessionId: ID!, $data: String!, $paste: Boolean) {
    sendTerminalInput(sessionId: $sessionId, data: $data, paste: $paste)
  }
`);

/** The pane takes the browser's size; false while a person's tmux client decides it. */
export const ResizeTerminalMutation = graphql(`
  mutation DashboardResizeTerminal($sessionId: ID!, $cols: Int!, $rows: Int!) {
    resizeTerminal(sessionId: $sessionId, cols: $cols, rows: $rows)
  }
`);

export const FocusSessionMutation = graphql(`
  mutation DashboardFocusSession($id: ID!) {
    focusSession(id: $id) {
      ...SessionFields
    }
  }
`);

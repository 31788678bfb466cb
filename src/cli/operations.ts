import { graphql } from '../gql/index.js';

/** The command line's operations, typed by codegen (npm run codegen). */

export const SessionsQuery = graphql(`
  query CliSessions($label: String) {
    sessions(label: $label) {
      id
      name
      labels
      status
      cwd
      lastEventAt
      attachCommand
      node
      origin
      tmuxPane
    }
  }
`);

export const AttentionItemFragment = graphql(`
  fragment CliAttentionItem on AttentionItem {
    reason
    since
    session {
      id
      name
      cwd
      attachCommand
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
    lastAssistantMessage
  }
`);

export const AttentionQuery = graphql(`
  query CliAttention {
    attention {
      ...CliAttentionItem
    }
  }
`);

export const AttentionSubscription = graphql(`
  subscription CliAttentionUpdates {
    attention {
      items {
        ...CliAttentionItem
      }
      raised {
        ...CliAttentionItem
      }
    }
  }
`);

export const FocusSessionMutation = graphql(`
  mutation CliFocusSession($id: ID!, $client: String) {
    focusSession(id: $id, client: $client) {
      id
      name
      origin
      tmuxSession
      tmuxPane
    }
  }
`);

export const InstallHooksMutation = graphql(`
  mutation CliInstallHooks($scope: HookScope!, $dir: String) {
    installHooks(scope: $scope, dir: $dir) {
      path
      events
      url
      backupPath
    }
  }
`);

export const CreateSessionMutation = graphql(`
  mutation CliCreateSession($input: CreateSessionInput!) {
    createSession(input: $input) {
      id
      status
      attachCommand
      worktree {
        path
        branch
      }
    }
  }
`);

export const SetSessionLabelsMutation = graphql(`
  mutation CliSetSessionLabels($sessionId: ID!, $labels: [String!]!) {
    setSessionLabels(sessionId: $sessionId, labels: $labels) {
      id
      labels
    }
  }
`);

export const EnqueueMessageMutation = graphql(`
  mutation CliEnqueueMessage($sessionId: ID!, $text: String!, $channel: String) {
    enqueueMessage(sessionId: $sessionId, text: $text, channel: $channel) {
      id
      status
    }
  }
`);

export const ChannelsQuery = graphql(`
  query CliChannels {
    channels {
      name
      description
      listeners
      lastMessageAt
    }
  }
`);

export const ChannelMessagesSubscription = graphql(`
  subscription CliChannelMessages($channel: String!, $after: Int, $description: String) {
    channelMessages(channel: $channel, after: $after, description: $description) {
      seq
      channel
      sessionId
      text
      at
    }
  }
`);

export const AskMutation = graphql(`
  mutation CliAsk($sessionId: ID!, $text: String!, $timeoutSeconds: Int) {
    ask(sessionId: $sessionId, text: $text, timeoutSeconds: $timeoutSeconds) {
      __typename
      ... on AskReply {
        reply
        durationMs
      }
      ... on AskTimeout {
        waitedMs
      }
      ... on AskFailed {
        message {
          error
        }
      }
    }
  }
`);

export const StopSessionMutation = graphql(`
  mutation CliStopSession($id: ID!, $removeWorktree: Boolean) {
    stopSession(id: $id, removeWorktree: $removeWorktree) {
      id
      status
      worktree {
        removal {
          note
        }
      }
    }
  }
`);

export const SessionDiffQuery = graphql(`
  query CliSessionDiff($id: ID!, $base: String) {
    session(id: $id) {
      diff(base: $base)
    }
  }
`);

/** The ids and numbers of a session's last turns, to find the one a number names. */
export const SessionTurnNumbersQuery = graphql(`
  query CliSessionTurnNumbers($id: ID!, $last: Int!) {
    session(id: $id) {
      turns(last: $last) {
        id
        number
      }
    }
  }
`);

/** The files one turn changed: each with its diff, the calls that changed it, who allowed each. */
export const TurnChangesQuery = graphql(`
  query CliTurnChanges($id: ID!) {
    turn(id: $id) {
      number
      changes {
        path
        oldPath
        kind
        diff
        truncated
        actions {
          id
          toolName
          title
        }
        approvedBy {
          kind
          toolUseId
          token
          rule
          mode
        }
      }
    }
  }
`);

export const CommitWorktreeMutation = graphql(`
  mutation CliCommitWorktree($id: ID!, $message: String!) {
    commitWorktree(sessionId: $id, message: $message)
  }
`);

export const ResumeSessionMutation = graphql(`
  mutation CliResumeSession($id: ID!) {
    resumeSession(id: $id) {
      id
      status
    }
  }
`);

export const DecidePermissionMutation = graphql(`
  mutation CliDecidePermission($input: DecidePermissionInput!) {
    decidePermission(input: $input) {
      request {
        id
        status
        toolName
      }
      error {
        code
        message
      }
    }
  }
`);

export const TailSubscription = graphql(`
  subscription CliTail($id: ID!, $after: Int) {
    sessionEvents(id: $id, after: $after) {
      __typename
      seq
      eventName
      receivedAt
      payload
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

export const ActionsSubscription = graphql(`
  subscription CliActions($id: ID!, $after: Int) {
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

export const TurnsSubscription = graphql(`
  subscription CliTurns($sessionId: ID, $after: DateTime) {
    turns(sessionId: $sessionId, after: $after) {
      id
      sessionId
      number
      prompt
      status
      ok
      answer
      error
      usage
      resume
      startedAt
      completedAt
      durationMs
      actions {
        id
        kind
        title
        ok
        durationMs
      }
    }
  }
`);

export const UsageTotalFields = graphql(`
  fragment CliUsageTotal on UsageTotal {
    key
    turns
    inputTokens
    outputTokens
    cacheReadTokens
    cacheWriteTokens
    costUsd
    unpricedTurns
  }
`);

/** The groups asked for, and the same turns by session: each turn once, for the total. */
export const UsageQuery = graphql(`
  query CliUsage($groupBy: UsageGroup!, $since: DateTime) {
    usage(groupBy: $groupBy, since: $since) {
      ...CliUsageTotal
    }
    bySession: usage(groupBy: SESSION, since: $since) {
      ...CliUsageTotal
    }
  }
`);

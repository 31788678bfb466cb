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
    "\n  fragment SessionStateFields on Session {\n    id\n    name\n    model\n    permissionMode\n    status\n    blockedReason\n    error\n    attachCommand\n    lastEventAt\n    restartCount\n    node\n    tmuxPane\n    costUsd\n    limitedUntil\n  }\n": typeof types.SessionStateFieldsFragmentDoc,
    "\n  fragment SessionFields on Session {\n    ...SessionStateFields\n    cwd\n    runtime\n    createdAt\n    origin\n    parent {\n      id\n      name\n    }\n  }\n": typeof types.SessionFieldsFragmentDoc,
    "\n  fragment PermissionFields on PermissionRequest {\n    id\n    sessionId\n    toolName\n    toolInput\n    status\n    requestedAt\n    message\n    decidedBy\n    explanation\n  }\n": typeof types.PermissionFieldsFragmentDoc,
    "\n  fragment AttentionFields on AttentionItem {\n    reason\n    since\n    lastAssistantMessage\n    dialog\n    session {\n      id\n      name\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n  }\n": typeof types.AttentionFieldsFragmentDoc,
    "\n  query DashboardOverview {\n    sessions {\n      ...SessionFields\n    }\n    permissionRequests(status: PENDING) {\n      ...PermissionFields\n    }\n  }\n": typeof types.DashboardOverviewDocument,
    "\n  subscription DashboardAttention {\n    attention(onlyChanges: true) {\n      whole\n      items {\n        ...AttentionFields\n      }\n      raised {\n        ...AttentionFields\n      }\n      cleared {\n        reason\n        since\n        session {\n          id\n        }\n        permissionRequest {\n          id\n        }\n      }\n    }\n  }\n": typeof types.DashboardAttentionDocument,
    "\n  query DashboardScreen($id: ID!) {\n    session(id: $id) {\n      id\n      screen\n    }\n  }\n": typeof types.DashboardScreenDocument,
    "\n  subscription DashboardSessionUpdates {\n    sessionUpdateBatches(everyMs: 50) {\n      ...SessionStateFields\n    }\n  }\n": typeof types.DashboardSessionUpdatesDocument,
    "\n  query DashboardSession($id: ID!) {\n    session(id: $id) {\n      ...SessionFields\n    }\n  }\n": typeof types.DashboardSessionDocument,
    "\n  subscription DashboardPermissionRequests {\n    permissionRequests {\n      ...PermissionFields\n    }\n  }\n": typeof types.DashboardPermissionRequestsDocument,
    "\n  subscription DashboardSessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on HubPermissionResolvedEvent {\n        toolName\n        status\n        message\n        decidedBy\n        explanation\n      }\n      ... on HubStopRefusedEvent {\n        rule\n        reason\n        explanation\n      }\n      ... on PermissionDeniedEvent {\n        toolName\n        reason\n      }\n      ... on MessageDisplayEvent {\n        messageId\n        index\n        delta\n        final\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on StopFailureEvent {\n        error\n        lastAssistantMessage\n      }\n      ... on SubagentStopEvent {\n        agentType\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n      ... on HubEventsMissedEvent {\n        stepCount\n        turnOver\n      }\n      ... on ChannelMessageEvent {\n        channel\n        text\n        channelSeq\n      }\n      ... on StreamMessageEvent {\n        type\n        line: message\n      }\n    }\n  }\n": typeof types.DashboardSessionEventsDocument,
    "\n  subscription DashboardSessionActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n": typeof types.DashboardSessionActionsDocument,
    "\n  subscription DashboardTurns($sessionId: ID!, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      number\n      status\n      error\n      usage\n      costUsd\n      costSource\n      resume\n      completedAt\n      durationMs\n    }\n  }\n": typeof types.DashboardTurnsDocument,
    "\n  query DashboardTurnChanges($id: ID!) {\n    turn(id: $id) {\n      id\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          kind\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n          requestId\n          decidedAt\n        }\n      }\n    }\n  }\n": typeof types.DashboardTurnChangesDocument,
    "\n  subscription DashboardSessionTerminal($id: ID!) {\n    sessionTerminal(id: $id) {\n      kind\n      data\n      cols\n      rows\n      reason\n    }\n  }\n": typeof types.DashboardSessionTerminalDocument,
    "\n  mutation DashboardCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionFields\n    }\n  }\n": typeof types.DashboardCreateSessionDocument,
    "\n  mutation DashboardEnqueueMessage($sessionId: ID!, $text: String!) {\n    enqueueMessage(sessionId: $sessionId, text: $text) {\n      id\n      status\n      error\n    }\n  }\n": typeof types.DashboardEnqueueMessageDocument,
    "\n  mutation DashboardAsk($sessionId: ID!, $text: String!) {\n    ask(sessionId: $sessionId, text: $text) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n        message {\n          status\n        }\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n": typeof types.DashboardAskDocument,
    "\n  mutation DashboardDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        ...PermissionFields\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.DashboardDecidePermissionDocument,
    "\n  mutation DashboardStopSession($id: ID!) {\n    stopSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": typeof types.DashboardStopSessionDocument,
    "\n  mutation DashboardResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": typeof types.DashboardResumeSessionDocument,
    "\n  mutation DashboardInterruptSession($id: ID!) {\n    interruptSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": typeof types.DashboardInterruptSessionDocument,
    "\n  mutation DashboardSendKeys($sessionId: ID!, $keys: [String!]!) {\n    sendKeys(sessionId: $sessionId, keys: $keys) {\n      ...SessionFields\n      screen\n    }\n  }\n": typeof types.DashboardSendKeysDocument,
    "\n  mutation DashboardSendTerminalInput($sessionId: ID!, $data: String!, $paste: Boolean) {\n    sendTerminalInput(sessionId: $sessionId, data: $data, paste: $paste)\n  }\n": typeof types.DashboardSendTerminalInputDocument,
    "\n  mutation DashboardResizeTerminal($sessionId: ID!, $cols: Int!, $rows: Int!) {\n    resizeTerminal(sessionId: $sessionId, cols: $cols, rows: $rows)\n  }\n": typeof types.DashboardResizeTerminalDocument,
    "\n  mutation DashboardFocusSession($id: ID!) {\n    focusSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": typeof types.DashboardFocusSessionDocument,
    "\n  query DashboardChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n": typeof types.DashboardChannelsDocument,
    "\n  fragment HookInstallationFields on HookInstallation {\n    path\n    installed\n    events\n    url\n    current\n  }\n": typeof types.HookInstallationFieldsFragmentDoc,
    "\n  query DashboardHookInstallation {\n    hookInstallation(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n": typeof types.DashboardHookInstallationDocument,
    "\n  mutation DashboardInstallHooks {\n    installHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n": typeof types.DashboardInstallHooksDocument,
    "\n  mutation DashboardUninstallHooks {\n    uninstallHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n": typeof types.DashboardUninstallHooksDocument,
    "\n  query DashboardUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      key\n      turns\n      inputTokens\n      outputTokens\n      cacheReadTokens\n      cacheWriteTokens\n      costUsd\n      unpricedTurns\n    }\n  }\n": typeof types.DashboardUsageDocument,
    "\n  query DashboardSchedules {\n    schedules {\n      id\n      cron\n      timezone\n      text\n      sessionId\n      createSession\n      overlap\n      nextRunAt\n      lastRunAt\n      lastSessionId\n      lastError\n    }\n  }\n": typeof types.DashboardSchedulesDocument,
    "\n  fragment RuleFields on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n": typeof types.RuleFieldsFragmentDoc,
    "\n  subscription DashboardPermissionRules {\n    permissionRules {\n      ...RuleFields\n    }\n  }\n": typeof types.DashboardPermissionRulesDocument,
    "\n  mutation DashboardUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...RuleFields\n    }\n  }\n": typeof types.DashboardUpdatePermissionRuleDocument,
    "\n  query DashboardPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime) {\n    policyDryRun(rules: $rules, since: $since) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n": typeof types.DashboardPolicyDryRunDocument,
    "\n  mutation RunTaskCreate($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      runtime\n      createdAt\n    }\n  }\n": typeof types.RunTaskCreateDocument,
    "\n  mutation RunTaskSend($id: ID!, $text: String!) {\n    sendMessage(sessionId: $id, text: $text) {\n      id\n    }\n  }\n": typeof types.RunTaskSendDocument,
    "\n  subscription RunTaskRequests {\n    permissionRequests(pending: true) {\n      id\n      sessionId\n      status\n      toolName\n      toolInput\n    }\n  }\n": typeof types.RunTaskRequestsDocument,
    "\n  mutation RunTaskDecide($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.RunTaskDecideDocument,
    "\n  subscription RunTaskTurns($id: ID!, $after: DateTime) {\n    turns(sessionId: $id, after: $after) {\n      number\n      status\n      ok\n      answer\n      error\n      costUsd\n      usage\n      durationMs\n      resume\n      actions {\n        kind\n        title\n        ok\n      }\n    }\n  }\n": typeof types.RunTaskTurnsDocument,
    "\n  mutation RunTaskStop($id: ID!) {\n    stopSession(id: $id) {\n      status\n    }\n  }\n": typeof types.RunTaskStopDocument,
    "\n  query CliSessions($label: String) {\n    sessions(label: $label) {\n      id\n      name\n      labels\n      status\n      cwd\n      lastEventAt\n      attachCommand\n      node\n      origin\n      tmuxPane\n    }\n  }\n": typeof types.CliSessionsDocument,
    "\n  fragment CliAttentionItem on AttentionItem {\n    reason\n    since\n    session {\n      id\n      name\n      cwd\n      attachCommand\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n    lastAssistantMessage\n  }\n": typeof types.CliAttentionItemFragmentDoc,
    "\n  query CliAttention {\n    attention {\n      ...CliAttentionItem\n    }\n  }\n": typeof types.CliAttentionDocument,
    "\n  subscription CliAttentionUpdates {\n    attention {\n      items {\n        ...CliAttentionItem\n      }\n      raised {\n        ...CliAttentionItem\n      }\n    }\n  }\n": typeof types.CliAttentionUpdatesDocument,
    "\n  mutation CliFocusSession($id: ID!, $client: String) {\n    focusSession(id: $id, client: $client) {\n      id\n      name\n      origin\n      tmuxSession\n      tmuxPane\n    }\n  }\n": typeof types.CliFocusSessionDocument,
    "\n  mutation CliInstallHooks($scope: HookScope!, $dir: String) {\n    installHooks(scope: $scope, dir: $dir) {\n      path\n      events\n      url\n      backupPath\n    }\n  }\n": typeof types.CliInstallHooksDocument,
    "\n  mutation CliCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      status\n      attachCommand\n      worktree {\n        path\n        branch\n      }\n    }\n  }\n": typeof types.CliCreateSessionDocument,
    "\n  mutation CliSetSessionLabels($sessionId: ID!, $labels: [String!]!) {\n    setSessionLabels(sessionId: $sessionId, labels: $labels) {\n      id\n      labels\n    }\n  }\n": typeof types.CliSetSessionLabelsDocument,
    "\n  mutation CliEnqueueMessage($sessionId: ID!, $text: String!, $channel: String) {\n    enqueueMessage(sessionId: $sessionId, text: $text, channel: $channel) {\n      id\n      status\n    }\n  }\n": typeof types.CliEnqueueMessageDocument,
    "\n  query CliChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n": typeof types.CliChannelsDocument,
    "\n  subscription CliChannelMessages($channel: String!, $after: Int, $description: String) {\n    channelMessages(channel: $channel, after: $after, description: $description) {\n      seq\n      channel\n      sessionId\n      text\n      at\n    }\n  }\n": typeof types.CliChannelMessagesDocument,
    "\n  mutation CliAsk($sessionId: ID!, $text: String!, $timeoutSeconds: Int) {\n    ask(sessionId: $sessionId, text: $text, timeoutSeconds: $timeoutSeconds) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n": typeof types.CliAskDocument,
    "\n  mutation CliStopSession($id: ID!, $removeWorktree: Boolean) {\n    stopSession(id: $id, removeWorktree: $removeWorktree) {\n      id\n      status\n      worktree {\n        removal {\n          note\n        }\n      }\n    }\n  }\n": typeof types.CliStopSessionDocument,
    "\n  query CliSessionDiff($id: ID!, $base: String) {\n    session(id: $id) {\n      diff(base: $base)\n    }\n  }\n": typeof types.CliSessionDiffDocument,
    "\n  query CliSessionTurnNumbers($id: ID!, $last: Int!) {\n    session(id: $id) {\n      turns(last: $last) {\n        id\n        number\n      }\n    }\n  }\n": typeof types.CliSessionTurnNumbersDocument,
    "\n  query CliTurnChanges($id: ID!) {\n    turn(id: $id) {\n      number\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n        }\n      }\n    }\n  }\n": typeof types.CliTurnChangesDocument,
    "\n  mutation CliCommitWorktree($id: ID!, $message: String!) {\n    commitWorktree(sessionId: $id, message: $message)\n  }\n": typeof types.CliCommitWorktreeDocument,
    "\n  mutation CliResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.CliResumeSessionDocument,
    "\n  mutation CliDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        id\n        status\n        toolName\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n": typeof types.CliDecidePermissionDocument,
    "\n  subscription CliTail($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      payload\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n": typeof types.CliTailDocument,
    "\n  subscription CliActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n": typeof types.CliActionsDocument,
    "\n  subscription CliTurns($sessionId: ID, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      sessionId\n      number\n      prompt\n      status\n      ok\n      answer\n      error\n      usage\n      resume\n      startedAt\n      completedAt\n      durationMs\n      actions {\n        id\n        kind\n        title\n        ok\n        durationMs\n      }\n    }\n  }\n": typeof types.CliTurnsDocument,
    "\n  fragment CliUsageTotal on UsageTotal {\n    key\n    turns\n    inputTokens\n    outputTokens\n    cacheReadTokens\n    cacheWriteTokens\n    costUsd\n    unpricedTurns\n  }\n": typeof types.CliUsageTotalFragmentDoc,
    "\n  query CliUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      ...CliUsageTotal\n    }\n    bySession: usage(groupBy: SESSION, since: $since) {\n      ...CliUsageTotal\n    }\n  }\n": typeof types.CliUsageDocument,
    "\n  query CliPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime, $sessionId: ID) {\n    policyDryRun(rules: $rules, since: $since, sessionId: $sessionId) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n": typeof types.CliPolicyDryRunDocument,
    "\n  fragment CliPermissionRule on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    createdAt\n    updatedAt\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n": typeof types.CliPermissionRuleFragmentDoc,
    "\n  query CliPermissionRules {\n    permissionRules {\n      ...CliPermissionRule\n    }\n  }\n": typeof types.CliPermissionRulesDocument,
    "\n  mutation CliCreatePermissionRule($input: PermissionRuleInput!) {\n    createPermissionRule(input: $input) {\n      ...CliPermissionRule\n    }\n  }\n": typeof types.CliCreatePermissionRuleDocument,
    "\n  mutation CliUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...CliPermissionRule\n    }\n  }\n": typeof types.CliUpdatePermissionRuleDocument,
    "\n  mutation CliDeletePermissionRule($id: ID!) {\n    deletePermissionRule(id: $id)\n  }\n": typeof types.CliDeletePermissionRuleDocument,
    "\n  fragment CliSchedule on Schedule {\n    id\n    cron\n    timezone\n    text\n    sessionId\n    createSession\n    overlap\n    nextRunAt\n    lastRunAt\n    lastSessionId\n    lastError\n    createdAt\n    createdBy\n  }\n": typeof types.CliScheduleFragmentDoc,
    "\n  query CliSchedules {\n    schedules {\n      ...CliSchedule\n    }\n  }\n": typeof types.CliSchedulesDocument,
    "\n  mutation CliSchedulePrompt($input: SchedulePromptInput!) {\n    schedulePrompt(input: $input) {\n      ...CliSchedule\n    }\n  }\n": typeof types.CliSchedulePromptDocument,
    "\n  mutation CliDeleteSchedule($id: ID!) {\n    deleteSchedule(id: $id)\n  }\n": typeof types.CliDeleteScheduleDocument,
};
const documents: Documents = {
    "\n  fragment SessionStateFields on Session {\n    id\n    name\n    model\n    permissionMode\n    status\n    blockedReason\n    error\n    attachCommand\n    lastEventAt\n    restartCount\n    node\n    tmuxPane\n    costUsd\n    limitedUntil\n  }\n": types.SessionStateFieldsFragmentDoc,
    "\n  fragment SessionFields on Session {\n    ...SessionStateFields\n    cwd\n    runtime\n    createdAt\n    origin\n    parent {\n      id\n      name\n    }\n  }\n": types.SessionFieldsFragmentDoc,
    "\n  fragment PermissionFields on PermissionRequest {\n    id\n    sessionId\n    toolName\n    toolInput\n    status\n    requestedAt\n    message\n    decidedBy\n    explanation\n  }\n": types.PermissionFieldsFragmentDoc,
    "\n  fragment AttentionFields on AttentionItem {\n    reason\n    since\n    lastAssistantMessage\n    dialog\n    session {\n      id\n      name\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n  }\n": types.AttentionFieldsFragmentDoc,
    "\n  query DashboardOverview {\n    sessions {\n      ...SessionFields\n    }\n    permissionRequests(status: PENDING) {\n      ...PermissionFields\n    }\n  }\n": types.DashboardOverviewDocument,
    "\n  subscription DashboardAttention {\n    attention(onlyChanges: true) {\n      whole\n      items {\n        ...AttentionFields\n      }\n      raised {\n        ...AttentionFields\n      }\n      cleared {\n        reason\n        since\n        session {\n          id\n        }\n        permissionRequest {\n          id\n        }\n      }\n    }\n  }\n": types.DashboardAttentionDocument,
    "\n  query DashboardScreen($id: ID!) {\n    session(id: $id) {\n      id\n      screen\n    }\n  }\n": types.DashboardScreenDocument,
    "\n  subscription DashboardSessionUpdates {\n    sessionUpdateBatches(everyMs: 50) {\n      ...SessionStateFields\n    }\n  }\n": types.DashboardSessionUpdatesDocument,
    "\n  query DashboardSession($id: ID!) {\n    session(id: $id) {\n      ...SessionFields\n    }\n  }\n": types.DashboardSessionDocument,
    "\n  subscription DashboardPermissionRequests {\n    permissionRequests {\n      ...PermissionFields\n    }\n  }\n": types.DashboardPermissionRequestsDocument,
    "\n  subscription DashboardSessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on HubPermissionResolvedEvent {\n        toolName\n        status\n        message\n        decidedBy\n        explanation\n      }\n      ... on HubStopRefusedEvent {\n        rule\n        reason\n        explanation\n      }\n      ... on PermissionDeniedEvent {\n        toolName\n        reason\n      }\n      ... on MessageDisplayEvent {\n        messageId\n        index\n        delta\n        final\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on StopFailureEvent {\n        error\n        lastAssistantMessage\n      }\n      ... on SubagentStopEvent {\n        agentType\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n      ... on HubEventsMissedEvent {\n        stepCount\n        turnOver\n      }\n      ... on ChannelMessageEvent {\n        channel\n        text\n        channelSeq\n      }\n      ... on StreamMessageEvent {\n        type\n        line: message\n      }\n    }\n  }\n": types.DashboardSessionEventsDocument,
    "\n  subscription DashboardSessionActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n": types.DashboardSessionActionsDocument,
    "\n  subscription DashboardTurns($sessionId: ID!, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      number\n      status\n      error\n      usage\n      costUsd\n      costSource\n      resume\n      completedAt\n      durationMs\n    }\n  }\n": types.DashboardTurnsDocument,
    "\n  query DashboardTurnChanges($id: ID!) {\n    turn(id: $id) {\n      id\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          kind\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n          requestId\n          decidedAt\n        }\n      }\n    }\n  }\n": types.DashboardTurnChangesDocument,
    "\n  subscription DashboardSessionTerminal($id: ID!) {\n    sessionTerminal(id: $id) {\n      kind\n      data\n      cols\n      rows\n      reason\n    }\n  }\n": types.DashboardSessionTerminalDocument,
    "\n  mutation DashboardCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionFields\n    }\n  }\n": types.DashboardCreateSessionDocument,
    "\n  mutation DashboardEnqueueMessage($sessionId: ID!, $text: String!) {\n    enqueueMessage(sessionId: $sessionId, text: $text) {\n      id\n      status\n      error\n    }\n  }\n": types.DashboardEnqueueMessageDocument,
    "\n  mutation DashboardAsk($sessionId: ID!, $text: String!) {\n    ask(sessionId: $sessionId, text: $text) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n        message {\n          status\n        }\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n": types.DashboardAskDocument,
    "\n  mutation DashboardDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        ...PermissionFields\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n": types.DashboardDecidePermissionDocument,
    "\n  mutation DashboardStopSession($id: ID!) {\n    stopSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": types.DashboardStopSessionDocument,
    "\n  mutation DashboardResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": types.DashboardResumeSessionDocument,
    "\n  mutation DashboardInterruptSession($id: ID!) {\n    interruptSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": types.DashboardInterruptSessionDocument,
    "\n  mutation DashboardSendKeys($sessionId: ID!, $keys: [String!]!) {\n    sendKeys(sessionId: $sessionId, keys: $keys) {\n      ...SessionFields\n      screen\n    }\n  }\n": types.DashboardSendKeysDocument,
    "\n  mutation DashboardSendTerminalInput($sessionId: ID!, $data: String!, $paste: Boolean) {\n    sendTerminalInput(sessionId: $sessionId, data: $data, paste: $paste)\n  }\n": types.DashboardSendTerminalInputDocument,
    "\n  mutation DashboardResizeTerminal($sessionId: ID!, $cols: Int!, $rows: Int!) {\n    resizeTerminal(sessionId: $sessionId, cols: $cols, rows: $rows)\n  }\n": types.DashboardResizeTerminalDocument,
    "\n  mutation DashboardFocusSession($id: ID!) {\n    focusSession(id: $id) {\n      ...SessionFields\n    }\n  }\n": types.DashboardFocusSessionDocument,
    "\n  query DashboardChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n": types.DashboardChannelsDocument,
    "\n  fragment HookInstallationFields on HookInstallation {\n    path\n    installed\n    events\n    url\n    current\n  }\n": types.HookInstallationFieldsFragmentDoc,
    "\n  query DashboardHookInstallation {\n    hookInstallation(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n": types.DashboardHookInstallationDocument,
    "\n  mutation DashboardInstallHooks {\n    installHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n": types.DashboardInstallHooksDocument,
    "\n  mutation DashboardUninstallHooks {\n    uninstallHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n": types.DashboardUninstallHooksDocument,
    "\n  query DashboardUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      key\n      turns\n      inputTokens\n      outputTokens\n      cacheReadTokens\n      cacheWriteTokens\n      costUsd\n      unpricedTurns\n    }\n  }\n": types.DashboardUsageDocument,
    "\n  query DashboardSchedules {\n    schedules {\n      id\n      cron\n      timezone\n      text\n      sessionId\n      createSession\n      overlap\n      nextRunAt\n      lastRunAt\n      lastSessionId\n      lastError\n    }\n  }\n": types.DashboardSchedulesDocument,
    "\n  fragment RuleFields on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n": types.RuleFieldsFragmentDoc,
    "\n  subscription DashboardPermissionRules {\n    permissionRules {\n      ...RuleFields\n    }\n  }\n": types.DashboardPermissionRulesDocument,
    "\n  mutation DashboardUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...RuleFields\n    }\n  }\n": types.DashboardUpdatePermissionRuleDocument,
    "\n  query DashboardPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime) {\n    policyDryRun(rules: $rules, since: $since) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n": types.DashboardPolicyDryRunDocument,
    "\n  mutation RunTaskCreate($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      runtime\n      createdAt\n    }\n  }\n": types.RunTaskCreateDocument,
    "\n  mutation RunTaskSend($id: ID!, $text: String!) {\n    sendMessage(sessionId: $id, text: $text) {\n      id\n    }\n  }\n": types.RunTaskSendDocument,
    "\n  subscription RunTaskRequests {\n    permissionRequests(pending: true) {\n      id\n      sessionId\n      status\n      toolName\n      toolInput\n    }\n  }\n": types.RunTaskRequestsDocument,
    "\n  mutation RunTaskDecide($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      error {\n        code\n        message\n      }\n    }\n  }\n": types.RunTaskDecideDocument,
    "\n  subscription RunTaskTurns($id: ID!, $after: DateTime) {\n    turns(sessionId: $id, after: $after) {\n      number\n      status\n      ok\n      answer\n      error\n      costUsd\n      usage\n      durationMs\n      resume\n      actions {\n        kind\n        title\n        ok\n      }\n    }\n  }\n": types.RunTaskTurnsDocument,
    "\n  mutation RunTaskStop($id: ID!) {\n    stopSession(id: $id) {\n      status\n    }\n  }\n": types.RunTaskStopDocument,
    "\n  query CliSessions($label: String) {\n    sessions(label: $label) {\n      id\n      name\n      labels\n      status\n      cwd\n      lastEventAt\n      attachCommand\n      node\n      origin\n      tmuxPane\n    }\n  }\n": types.CliSessionsDocument,
    "\n  fragment CliAttentionItem on AttentionItem {\n    reason\n    since\n    session {\n      id\n      name\n      cwd\n      attachCommand\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n    lastAssistantMessage\n  }\n": types.CliAttentionItemFragmentDoc,
    "\n  query CliAttention {\n    attention {\n      ...CliAttentionItem\n    }\n  }\n": types.CliAttentionDocument,
    "\n  subscription CliAttentionUpdates {\n    attention {\n      items {\n        ...CliAttentionItem\n      }\n      raised {\n        ...CliAttentionItem\n      }\n    }\n  }\n": types.CliAttentionUpdatesDocument,
    "\n  mutation CliFocusSession($id: ID!, $client: String) {\n    focusSession(id: $id, client: $client) {\n      id\n      name\n      origin\n      tmuxSession\n      tmuxPane\n    }\n  }\n": types.CliFocusSessionDocument,
    "\n  mutation CliInstallHooks($scope: HookScope!, $dir: String) {\n    installHooks(scope: $scope, dir: $dir) {\n      path\n      events\n      url\n      backupPath\n    }\n  }\n": types.CliInstallHooksDocument,
    "\n  mutation CliCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      status\n      attachCommand\n      worktree {\n        path\n        branch\n      }\n    }\n  }\n": types.CliCreateSessionDocument,
    "\n  mutation CliSetSessionLabels($sessionId: ID!, $labels: [String!]!) {\n    setSessionLabels(sessionId: $sessionId, labels: $labels) {\n      id\n      labels\n    }\n  }\n": types.CliSetSessionLabelsDocument,
    "\n  mutation CliEnqueueMessage($sessionId: ID!, $text: String!, $channel: String) {\n    enqueueMessage(sessionId: $sessionId, text: $text, channel: $channel) {\n      id\n      status\n    }\n  }\n": types.CliEnqueueMessageDocument,
    "\n  query CliChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n": types.CliChannelsDocument,
    "\n  subscription CliChannelMessages($channel: String!, $after: Int, $description: String) {\n    channelMessages(channel: $channel, after: $after, description: $description) {\n      seq\n      channel\n      sessionId\n      text\n      at\n    }\n  }\n": types.CliChannelMessagesDocument,
    "\n  mutation CliAsk($sessionId: ID!, $text: String!, $timeoutSeconds: Int) {\n    ask(sessionId: $sessionId, text: $text, timeoutSeconds: $timeoutSeconds) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n": types.CliAskDocument,
    "\n  mutation CliStopSession($id: ID!, $removeWorktree: Boolean) {\n    stopSession(id: $id, removeWorktree: $removeWorktree) {\n      id\n      status\n      worktree {\n        removal {\n          note\n        }\n      }\n    }\n  }\n": types.CliStopSessionDocument,
    "\n  query CliSessionDiff($id: ID!, $base: String) {\n    session(id: $id) {\n      diff(base: $base)\n    }\n  }\n": types.CliSessionDiffDocument,
    "\n  query CliSessionTurnNumbers($id: ID!, $last: Int!) {\n    session(id: $id) {\n      turns(last: $last) {\n        id\n        number\n      }\n    }\n  }\n": types.CliSessionTurnNumbersDocument,
    "\n  query CliTurnChanges($id: ID!) {\n    turn(id: $id) {\n      number\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n        }\n      }\n    }\n  }\n": types.CliTurnChangesDocument,
    "\n  mutation CliCommitWorktree($id: ID!, $message: String!) {\n    commitWorktree(sessionId: $id, message: $message)\n  }\n": types.CliCommitWorktreeDocument,
    "\n  mutation CliResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      id\n      status\n    }\n  }\n": types.CliResumeSessionDocument,
    "\n  mutation CliDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        id\n        status\n        toolName\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n": types.CliDecidePermissionDocument,
    "\n  subscription CliTail($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      payload\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n": types.CliTailDocument,
    "\n  subscription CliActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n": types.CliActionsDocument,
    "\n  subscription CliTurns($sessionId: ID, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      sessionId\n      number\n      prompt\n      status\n      ok\n      answer\n      error\n      usage\n      resume\n      startedAt\n      completedAt\n      durationMs\n      actions {\n        id\n        kind\n        title\n        ok\n        durationMs\n      }\n    }\n  }\n": types.CliTurnsDocument,
    "\n  fragment CliUsageTotal on UsageTotal {\n    key\n    turns\n    inputTokens\n    outputTokens\n    cacheReadTokens\n    cacheWriteTokens\n    costUsd\n    unpricedTurns\n  }\n": types.CliUsageTotalFragmentDoc,
    "\n  query CliUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      ...CliUsageTotal\n    }\n    bySession: usage(groupBy: SESSION, since: $since) {\n      ...CliUsageTotal\n    }\n  }\n": types.CliUsageDocument,
    "\n  query CliPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime, $sessionId: ID) {\n    policyDryRun(rules: $rules, since: $since, sessionId: $sessionId) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n": types.CliPolicyDryRunDocument,
    "\n  fragment CliPermissionRule on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    createdAt\n    updatedAt\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n": types.CliPermissionRuleFragmentDoc,
    "\n  query CliPermissionRules {\n    permissionRules {\n      ...CliPermissionRule\n    }\n  }\n": types.CliPermissionRulesDocument,
    "\n  mutation CliCreatePermissionRule($input: PermissionRuleInput!) {\n    createPermissionRule(input: $input) {\n      ...CliPermissionRule\n    }\n  }\n": types.CliCreatePermissionRuleDocument,
    "\n  mutation CliUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...CliPermissionRule\n    }\n  }\n": types.CliUpdatePermissionRuleDocument,
    "\n  mutation CliDeletePermissionRule($id: ID!) {\n    deletePermissionRule(id: $id)\n  }\n": types.CliDeletePermissionRuleDocument,
    "\n  fragment CliSchedule on Schedule {\n    id\n    cron\n    timezone\n    text\n    sessionId\n    createSession\n    overlap\n    nextRunAt\n    lastRunAt\n    lastSessionId\n    lastError\n    createdAt\n    createdBy\n  }\n": types.CliScheduleFragmentDoc,
    "\n  query CliSchedules {\n    schedules {\n      ...CliSchedule\n    }\n  }\n": types.CliSchedulesDocument,
    "\n  mutation CliSchedulePrompt($input: SchedulePromptInput!) {\n    schedulePrompt(input: $input) {\n      ...CliSchedule\n    }\n  }\n": types.CliSchedulePromptDocument,
    "\n  mutation CliDeleteSchedule($id: ID!) {\n    deleteSchedule(id: $id)\n  }\n": types.CliDeleteScheduleDocument,
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
export function graphql(source: "\n  fragment SessionStateFields on Session {\n    id\n    name\n    model\n    permissionMode\n    status\n    blockedReason\n    error\n    attachCommand\n    lastEventAt\n    restartCount\n    node\n    tmuxPane\n    costUsd\n    limitedUntil\n  }\n"): (typeof documents)["\n  fragment SessionStateFields on Session {\n    id\n    name\n    model\n    permissionMode\n    status\n    blockedReason\n    error\n    attachCommand\n    lastEventAt\n    restartCount\n    node\n    tmuxPane\n    costUsd\n    limitedUntil\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionFields on Session {\n    ...SessionStateFields\n    cwd\n    runtime\n    createdAt\n    origin\n    parent {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  fragment SessionFields on Session {\n    ...SessionStateFields\n    cwd\n    runtime\n    createdAt\n    origin\n    parent {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PermissionFields on PermissionRequest {\n    id\n    sessionId\n    toolName\n    toolInput\n    status\n    requestedAt\n    message\n    decidedBy\n    explanation\n  }\n"): (typeof documents)["\n  fragment PermissionFields on PermissionRequest {\n    id\n    sessionId\n    toolName\n    toolInput\n    status\n    requestedAt\n    message\n    decidedBy\n    explanation\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AttentionFields on AttentionItem {\n    reason\n    since\n    lastAssistantMessage\n    dialog\n    session {\n      id\n      name\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n  }\n"): (typeof documents)["\n  fragment AttentionFields on AttentionItem {\n    reason\n    since\n    lastAssistantMessage\n    dialog\n    session {\n      id\n      name\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverview {\n    sessions {\n      ...SessionFields\n    }\n    permissionRequests(status: PENDING) {\n      ...PermissionFields\n    }\n  }\n"): (typeof documents)["\n  query DashboardOverview {\n    sessions {\n      ...SessionFields\n    }\n    permissionRequests(status: PENDING) {\n      ...PermissionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardAttention {\n    attention(onlyChanges: true) {\n      whole\n      items {\n        ...AttentionFields\n      }\n      raised {\n        ...AttentionFields\n      }\n      cleared {\n        reason\n        since\n        session {\n          id\n        }\n        permissionRequest {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardAttention {\n    attention(onlyChanges: true) {\n      whole\n      items {\n        ...AttentionFields\n      }\n      raised {\n        ...AttentionFields\n      }\n      cleared {\n        reason\n        since\n        session {\n          id\n        }\n        permissionRequest {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardScreen($id: ID!) {\n    session(id: $id) {\n      id\n      screen\n    }\n  }\n"): (typeof documents)["\n  query DashboardScreen($id: ID!) {\n    session(id: $id) {\n      id\n      screen\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardSessionUpdates {\n    sessionUpdateBatches(everyMs: 50) {\n      ...SessionStateFields\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardSessionUpdates {\n    sessionUpdateBatches(everyMs: 50) {\n      ...SessionStateFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardSession($id: ID!) {\n    session(id: $id) {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  query DashboardSession($id: ID!) {\n    session(id: $id) {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardPermissionRequests {\n    permissionRequests {\n      ...PermissionFields\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardPermissionRequests {\n    permissionRequests {\n      ...PermissionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardSessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on HubPermissionResolvedEvent {\n        toolName\n        status\n        message\n        decidedBy\n        explanation\n      }\n      ... on HubStopRefusedEvent {\n        rule\n        reason\n        explanation\n      }\n      ... on PermissionDeniedEvent {\n        toolName\n        reason\n      }\n      ... on MessageDisplayEvent {\n        messageId\n        index\n        delta\n        final\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on StopFailureEvent {\n        error\n        lastAssistantMessage\n      }\n      ... on SubagentStopEvent {\n        agentType\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n      ... on HubEventsMissedEvent {\n        stepCount\n        turnOver\n      }\n      ... on ChannelMessageEvent {\n        channel\n        text\n        channelSeq\n      }\n      ... on StreamMessageEvent {\n        type\n        line: message\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardSessionEvents($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      ... on SessionStartEvent {\n        source\n        model\n      }\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on HubPermissionResolvedEvent {\n        toolName\n        status\n        message\n        decidedBy\n        explanation\n      }\n      ... on HubStopRefusedEvent {\n        rule\n        reason\n        explanation\n      }\n      ... on PermissionDeniedEvent {\n        toolName\n        reason\n      }\n      ... on MessageDisplayEvent {\n        messageId\n        index\n        delta\n        final\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on StopFailureEvent {\n        error\n        lastAssistantMessage\n      }\n      ... on SubagentStopEvent {\n        agentType\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n      ... on HubEventsMissedEvent {\n        stepCount\n        turnOver\n      }\n      ... on ChannelMessageEvent {\n        channel\n        text\n        channelSeq\n      }\n      ... on StreamMessageEvent {\n        type\n        line: message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardSessionActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardSessionActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardTurns($sessionId: ID!, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      number\n      status\n      error\n      usage\n      costUsd\n      costSource\n      resume\n      completedAt\n      durationMs\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardTurns($sessionId: ID!, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      number\n      status\n      error\n      usage\n      costUsd\n      costSource\n      resume\n      completedAt\n      durationMs\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardTurnChanges($id: ID!) {\n    turn(id: $id) {\n      id\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          kind\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n          requestId\n          decidedAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardTurnChanges($id: ID!) {\n    turn(id: $id) {\n      id\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          kind\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n          requestId\n          decidedAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardSessionTerminal($id: ID!) {\n    sessionTerminal(id: $id) {\n      kind\n      data\n      cols\n      rows\n      reason\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardSessionTerminal($id: ID!) {\n    sessionTerminal(id: $id) {\n      kind\n      data\n      cols\n      rows\n      reason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardEnqueueMessage($sessionId: ID!, $text: String!) {\n    enqueueMessage(sessionId: $sessionId, text: $text) {\n      id\n      status\n      error\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardEnqueueMessage($sessionId: ID!, $text: String!) {\n    enqueueMessage(sessionId: $sessionId, text: $text) {\n      id\n      status\n      error\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardAsk($sessionId: ID!, $text: String!) {\n    ask(sessionId: $sessionId, text: $text) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n        message {\n          status\n        }\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardAsk($sessionId: ID!, $text: String!) {\n    ask(sessionId: $sessionId, text: $text) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n        message {\n          status\n        }\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        ...PermissionFields\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        ...PermissionFields\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardStopSession($id: ID!) {\n    stopSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardStopSession($id: ID!) {\n    stopSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardInterruptSession($id: ID!) {\n    interruptSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardInterruptSession($id: ID!) {\n    interruptSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSendKeys($sessionId: ID!, $keys: [String!]!) {\n    sendKeys(sessionId: $sessionId, keys: $keys) {\n      ...SessionFields\n      screen\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardSendKeys($sessionId: ID!, $keys: [String!]!) {\n    sendKeys(sessionId: $sessionId, keys: $keys) {\n      ...SessionFields\n      screen\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSendTerminalInput($sessionId: ID!, $data: String!, $paste: Boolean) {\n    sendTerminalInput(sessionId: $sessionId, data: $data, paste: $paste)\n  }\n"): (typeof documents)["\n  mutation DashboardSendTerminalInput($sessionId: ID!, $data: String!, $paste: Boolean) {\n    sendTerminalInput(sessionId: $sessionId, data: $data, paste: $paste)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardResizeTerminal($sessionId: ID!, $cols: Int!, $rows: Int!) {\n    resizeTerminal(sessionId: $sessionId, cols: $cols, rows: $rows)\n  }\n"): (typeof documents)["\n  mutation DashboardResizeTerminal($sessionId: ID!, $cols: Int!, $rows: Int!) {\n    resizeTerminal(sessionId: $sessionId, cols: $cols, rows: $rows)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardFocusSession($id: ID!) {\n    focusSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardFocusSession($id: ID!) {\n    focusSession(id: $id) {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n"): (typeof documents)["\n  query DashboardChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HookInstallationFields on HookInstallation {\n    path\n    installed\n    events\n    url\n    current\n  }\n"): (typeof documents)["\n  fragment HookInstallationFields on HookInstallation {\n    path\n    installed\n    events\n    url\n    current\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardHookInstallation {\n    hookInstallation(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n"): (typeof documents)["\n  query DashboardHookInstallation {\n    hookInstallation(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardInstallHooks {\n    installHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardInstallHooks {\n    installHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUninstallHooks {\n    uninstallHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardUninstallHooks {\n    uninstallHooks(scope: USER) {\n      ...HookInstallationFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      key\n      turns\n      inputTokens\n      outputTokens\n      cacheReadTokens\n      cacheWriteTokens\n      costUsd\n      unpricedTurns\n    }\n  }\n"): (typeof documents)["\n  query DashboardUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      key\n      turns\n      inputTokens\n      outputTokens\n      cacheReadTokens\n      cacheWriteTokens\n      costUsd\n      unpricedTurns\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardSchedules {\n    schedules {\n      id\n      cron\n      timezone\n      text\n      sessionId\n      createSession\n      overlap\n      nextRunAt\n      lastRunAt\n      lastSessionId\n      lastError\n    }\n  }\n"): (typeof documents)["\n  query DashboardSchedules {\n    schedules {\n      id\n      cron\n      timezone\n      text\n      sessionId\n      createSession\n      overlap\n      nextRunAt\n      lastRunAt\n      lastSessionId\n      lastError\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RuleFields on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n"): (typeof documents)["\n  fragment RuleFields on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardPermissionRules {\n    permissionRules {\n      ...RuleFields\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardPermissionRules {\n    permissionRules {\n      ...RuleFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...RuleFields\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...RuleFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime) {\n    policyDryRun(rules: $rules, since: $since) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime) {\n    policyDryRun(rules: $rules, since: $since) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RunTaskCreate($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      runtime\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  mutation RunTaskCreate($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      runtime\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RunTaskSend($id: ID!, $text: String!) {\n    sendMessage(sessionId: $id, text: $text) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation RunTaskSend($id: ID!, $text: String!) {\n    sendMessage(sessionId: $id, text: $text) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunTaskRequests {\n    permissionRequests(pending: true) {\n      id\n      sessionId\n      status\n      toolName\n      toolInput\n    }\n  }\n"): (typeof documents)["\n  subscription RunTaskRequests {\n    permissionRequests(pending: true) {\n      id\n      sessionId\n      status\n      toolName\n      toolInput\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RunTaskDecide($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RunTaskDecide($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunTaskTurns($id: ID!, $after: DateTime) {\n    turns(sessionId: $id, after: $after) {\n      number\n      status\n      ok\n      answer\n      error\n      costUsd\n      usage\n      durationMs\n      resume\n      actions {\n        kind\n        title\n        ok\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription RunTaskTurns($id: ID!, $after: DateTime) {\n    turns(sessionId: $id, after: $after) {\n      number\n      status\n      ok\n      answer\n      error\n      costUsd\n      usage\n      durationMs\n      resume\n      actions {\n        kind\n        title\n        ok\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RunTaskStop($id: ID!) {\n    stopSession(id: $id) {\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation RunTaskStop($id: ID!) {\n    stopSession(id: $id) {\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliSessions($label: String) {\n    sessions(label: $label) {\n      id\n      name\n      labels\n      status\n      cwd\n      lastEventAt\n      attachCommand\n      node\n      origin\n      tmuxPane\n    }\n  }\n"): (typeof documents)["\n  query CliSessions($label: String) {\n    sessions(label: $label) {\n      id\n      name\n      labels\n      status\n      cwd\n      lastEventAt\n      attachCommand\n      node\n      origin\n      tmuxPane\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CliAttentionItem on AttentionItem {\n    reason\n    since\n    session {\n      id\n      name\n      cwd\n      attachCommand\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n    lastAssistantMessage\n  }\n"): (typeof documents)["\n  fragment CliAttentionItem on AttentionItem {\n    reason\n    since\n    session {\n      id\n      name\n      cwd\n      attachCommand\n      blockedReason\n      error\n      budgetHold {\n        scope\n        key\n        usd\n        spentUsd\n      }\n    }\n    permissionRequest {\n      id\n      toolName\n      toolInput\n    }\n    lastAssistantMessage\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliAttention {\n    attention {\n      ...CliAttentionItem\n    }\n  }\n"): (typeof documents)["\n  query CliAttention {\n    attention {\n      ...CliAttentionItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CliAttentionUpdates {\n    attention {\n      items {\n        ...CliAttentionItem\n      }\n      raised {\n        ...CliAttentionItem\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription CliAttentionUpdates {\n    attention {\n      items {\n        ...CliAttentionItem\n      }\n      raised {\n        ...CliAttentionItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliFocusSession($id: ID!, $client: String) {\n    focusSession(id: $id, client: $client) {\n      id\n      name\n      origin\n      tmuxSession\n      tmuxPane\n    }\n  }\n"): (typeof documents)["\n  mutation CliFocusSession($id: ID!, $client: String) {\n    focusSession(id: $id, client: $client) {\n      id\n      name\n      origin\n      tmuxSession\n      tmuxPane\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliInstallHooks($scope: HookScope!, $dir: String) {\n    installHooks(scope: $scope, dir: $dir) {\n      path\n      events\n      url\n      backupPath\n    }\n  }\n"): (typeof documents)["\n  mutation CliInstallHooks($scope: HookScope!, $dir: String) {\n    installHooks(scope: $scope, dir: $dir) {\n      path\n      events\n      url\n      backupPath\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      status\n      attachCommand\n      worktree {\n        path\n        branch\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CliCreateSession($input: CreateSessionInput!) {\n    createSession(input: $input) {\n      id\n      status\n      attachCommand\n      worktree {\n        path\n        branch\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliSetSessionLabels($sessionId: ID!, $labels: [String!]!) {\n    setSessionLabels(sessionId: $sessionId, labels: $labels) {\n      id\n      labels\n    }\n  }\n"): (typeof documents)["\n  mutation CliSetSessionLabels($sessionId: ID!, $labels: [String!]!) {\n    setSessionLabels(sessionId: $sessionId, labels: $labels) {\n      id\n      labels\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliEnqueueMessage($sessionId: ID!, $text: String!, $channel: String) {\n    enqueueMessage(sessionId: $sessionId, text: $text, channel: $channel) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation CliEnqueueMessage($sessionId: ID!, $text: String!, $channel: String) {\n    enqueueMessage(sessionId: $sessionId, text: $text, channel: $channel) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n"): (typeof documents)["\n  query CliChannels {\n    channels {\n      name\n      description\n      listeners\n      lastMessageAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CliChannelMessages($channel: String!, $after: Int, $description: String) {\n    channelMessages(channel: $channel, after: $after, description: $description) {\n      seq\n      channel\n      sessionId\n      text\n      at\n    }\n  }\n"): (typeof documents)["\n  subscription CliChannelMessages($channel: String!, $after: Int, $description: String) {\n    channelMessages(channel: $channel, after: $after, description: $description) {\n      seq\n      channel\n      sessionId\n      text\n      at\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliAsk($sessionId: ID!, $text: String!, $timeoutSeconds: Int) {\n    ask(sessionId: $sessionId, text: $text, timeoutSeconds: $timeoutSeconds) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CliAsk($sessionId: ID!, $text: String!, $timeoutSeconds: Int) {\n    ask(sessionId: $sessionId, text: $text, timeoutSeconds: $timeoutSeconds) {\n      __typename\n      ... on AskReply {\n        reply\n        durationMs\n      }\n      ... on AskTimeout {\n        waitedMs\n      }\n      ... on AskFailed {\n        message {\n          error\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliStopSession($id: ID!, $removeWorktree: Boolean) {\n    stopSession(id: $id, removeWorktree: $removeWorktree) {\n      id\n      status\n      worktree {\n        removal {\n          note\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CliStopSession($id: ID!, $removeWorktree: Boolean) {\n    stopSession(id: $id, removeWorktree: $removeWorktree) {\n      id\n      status\n      worktree {\n        removal {\n          note\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliSessionDiff($id: ID!, $base: String) {\n    session(id: $id) {\n      diff(base: $base)\n    }\n  }\n"): (typeof documents)["\n  query CliSessionDiff($id: ID!, $base: String) {\n    session(id: $id) {\n      diff(base: $base)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliSessionTurnNumbers($id: ID!, $last: Int!) {\n    session(id: $id) {\n      turns(last: $last) {\n        id\n        number\n      }\n    }\n  }\n"): (typeof documents)["\n  query CliSessionTurnNumbers($id: ID!, $last: Int!) {\n    session(id: $id) {\n      turns(last: $last) {\n        id\n        number\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliTurnChanges($id: ID!) {\n    turn(id: $id) {\n      number\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query CliTurnChanges($id: ID!) {\n    turn(id: $id) {\n      number\n      changes {\n        path\n        oldPath\n        kind\n        diff\n        truncated\n        actions {\n          id\n          toolName\n          title\n        }\n        approvedBy {\n          kind\n          toolUseId\n          token\n          rule\n          mode\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliCommitWorktree($id: ID!, $message: String!) {\n    commitWorktree(sessionId: $id, message: $message)\n  }\n"): (typeof documents)["\n  mutation CliCommitWorktree($id: ID!, $message: String!) {\n    commitWorktree(sessionId: $id, message: $message)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation CliResumeSession($id: ID!) {\n    resumeSession(id: $id) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        id\n        status\n        toolName\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CliDecidePermission($input: DecidePermissionInput!) {\n    decidePermission(input: $input) {\n      request {\n        id\n        status\n        toolName\n      }\n      error {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CliTail($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      payload\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription CliTail($id: ID!, $after: Int) {\n    sessionEvents(id: $id, after: $after) {\n      __typename\n      seq\n      eventName\n      receivedAt\n      payload\n      ... on UserPromptSubmitEvent {\n        prompt\n      }\n      ... on PreToolUseEvent {\n        toolName\n        toolInput\n      }\n      ... on PostToolUseEvent {\n        toolName\n        toolResponse\n        durationMs\n      }\n      ... on PermissionRequestEvent {\n        toolName\n        toolInput\n      }\n      ... on NotificationEvent {\n        message\n      }\n      ... on StopEvent {\n        lastAssistantMessage\n      }\n      ... on SessionEndEvent {\n        reason\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CliActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n"): (typeof documents)["\n  subscription CliActions($id: ID!, $after: Int) {\n    sessionActions(id: $id, after: $after) {\n      id\n      seq\n      kind\n      phase\n      title\n      toolName\n      ok\n      detail\n      startedAt\n      completedAt\n      durationMs\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CliTurns($sessionId: ID, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      sessionId\n      number\n      prompt\n      status\n      ok\n      answer\n      error\n      usage\n      resume\n      startedAt\n      completedAt\n      durationMs\n      actions {\n        id\n        kind\n        title\n        ok\n        durationMs\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription CliTurns($sessionId: ID, $after: DateTime) {\n    turns(sessionId: $sessionId, after: $after) {\n      id\n      sessionId\n      number\n      prompt\n      status\n      ok\n      answer\n      error\n      usage\n      resume\n      startedAt\n      completedAt\n      durationMs\n      actions {\n        id\n        kind\n        title\n        ok\n        durationMs\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CliUsageTotal on UsageTotal {\n    key\n    turns\n    inputTokens\n    outputTokens\n    cacheReadTokens\n    cacheWriteTokens\n    costUsd\n    unpricedTurns\n  }\n"): (typeof documents)["\n  fragment CliUsageTotal on UsageTotal {\n    key\n    turns\n    inputTokens\n    outputTokens\n    cacheReadTokens\n    cacheWriteTokens\n    costUsd\n    unpricedTurns\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      ...CliUsageTotal\n    }\n    bySession: usage(groupBy: SESSION, since: $since) {\n      ...CliUsageTotal\n    }\n  }\n"): (typeof documents)["\n  query CliUsage($groupBy: UsageGroup!, $since: DateTime) {\n    usage(groupBy: $groupBy, since: $since) {\n      ...CliUsageTotal\n    }\n    bySession: usage(groupBy: SESSION, since: $since) {\n      ...CliUsageTotal\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime, $sessionId: ID) {\n    policyDryRun(rules: $rules, since: $since, sessionId: $sessionId) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n"): (typeof documents)["\n  query CliPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime, $sessionId: ID) {\n    policyDryRun(rules: $rules, since: $since, sessionId: $sessionId) {\n      calls\n      sessions\n      allowed\n      denied\n      asked\n      changed\n      truncated\n      examples {\n        sessionId\n        seq\n        at\n        toolName\n        toolInput\n        then\n        now\n        thenDecidedBy\n        rule\n        explanation\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CliPermissionRule on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    createdAt\n    updatedAt\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n"): (typeof documents)["\n  fragment CliPermissionRule on PermissionRule {\n    id\n    name\n    enabled\n    priority\n    on\n    decision\n    message\n    source\n    createdBy\n    createdAt\n    updatedAt\n    match {\n      tools\n      input {\n        path\n        pattern\n      }\n      cwdUnder\n      labels\n      runtime\n      origin\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliPermissionRules {\n    permissionRules {\n      ...CliPermissionRule\n    }\n  }\n"): (typeof documents)["\n  query CliPermissionRules {\n    permissionRules {\n      ...CliPermissionRule\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliCreatePermissionRule($input: PermissionRuleInput!) {\n    createPermissionRule(input: $input) {\n      ...CliPermissionRule\n    }\n  }\n"): (typeof documents)["\n  mutation CliCreatePermissionRule($input: PermissionRuleInput!) {\n    createPermissionRule(input: $input) {\n      ...CliPermissionRule\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...CliPermissionRule\n    }\n  }\n"): (typeof documents)["\n  mutation CliUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {\n    updatePermissionRule(id: $id, input: $input) {\n      ...CliPermissionRule\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliDeletePermissionRule($id: ID!) {\n    deletePermissionRule(id: $id)\n  }\n"): (typeof documents)["\n  mutation CliDeletePermissionRule($id: ID!) {\n    deletePermissionRule(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CliSchedule on Schedule {\n    id\n    cron\n    timezone\n    text\n    sessionId\n    createSession\n    overlap\n    nextRunAt\n    lastRunAt\n    lastSessionId\n    lastError\n    createdAt\n    createdBy\n  }\n"): (typeof documents)["\n  fragment CliSchedule on Schedule {\n    id\n    cron\n    timezone\n    text\n    sessionId\n    createSession\n    overlap\n    nextRunAt\n    lastRunAt\n    lastSessionId\n    lastError\n    createdAt\n    createdBy\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CliSchedules {\n    schedules {\n      ...CliSchedule\n    }\n  }\n"): (typeof documents)["\n  query CliSchedules {\n    schedules {\n      ...CliSchedule\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliSchedulePrompt($input: SchedulePromptInput!) {\n    schedulePrompt(input: $input) {\n      ...CliSchedule\n    }\n  }\n"): (typeof documents)["\n  mutation CliSchedulePrompt($input: SchedulePromptInput!) {\n    schedulePrompt(input: $input) {\n      ...CliSchedule\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CliDeleteSchedule($id: ID!) {\n    deleteSchedule(id: $id)\n  }\n"): (typeof documents)["\n  mutation CliDeleteSchedule($id: ID!) {\n    deleteSchedule(id: $id)\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;
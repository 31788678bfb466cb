/**
 * The one registry of Claude Code hook events. The GraphQL event types, the per-session
 * settings file and the docs are all generated from it: supporting a new event is one entry here.
 * Fields read from the schemas of @anthropic-ai/claude-code 2.1.328, and PreSkillShellCommand's
 * from 2.1.332.
 *
 * Source: the zod hook-input schemas embedded in the CLI's native binary (the `N2` list of 33
 * event names and one `H().and(c({hook_event_name: E('...'), ...}))` schema per event; in
 * 2.1.332 the `Oc` list of 34 and `D().and(u({hook_event_name: P('...'), ...}))`), checked
 * against the code that builds each payload. The order below is the CLI's own order. A claude
 * may support events this registry lacks: the hub learns each claude's own list (see
 * src/claude/claude-cli.ts) and registers those too, delivered as UnknownHookEvent.
 */

/** How a payload field is exposed in GraphQL. */
export type FieldType = 'String' | 'Int' | 'Float' | 'Boolean' | 'JSON';

export interface HookEventSpec {
  /** One line describing when Claude Code fires it. */
  readonly description: string;
  /** False for events that run only command hooks (SessionStart, Setup). */
  readonly http: boolean;
  /** Event-specific payload keys (snake_case, as posted) and their GraphQL type. */
  readonly fields: Readonly<Record<string, FieldType>>;
}

/**
 * Keys that may appear on any event: every event can fire inside a subagent. Besides these,
 * every payload carries session_id, transcript_path, cwd, hook_event_name and (usually)
 * permission_mode. They are not repeated per event, even where an event's schema marks one as
 * always present (SubagentStart / SubagentStop always set agent_id and agent_type; SessionStart
 * lists agent_type).
 */
export const commonFields = {
  /** Subagent id; only when the hook fires inside a subagent. */
  agent_id: 'String',
  /** Agent type name; inside a subagent, or on the main thread of an `--agent` session. */
  agent_type: 'String',
  /** UUID tying the events of one user prompt together; absent before the first prompt. */
  prompt_id: 'String',
  /** `{ level: 'low' | 'medium' | 'high' | 'xhigh' | 'max' }` on models with effort support. */
  effort: 'JSON',
  /** Session scratchpad directory; set by the payload builder only when that feature is on (not in the zod schema). */
  scratchpad_dir: 'String',
} as const satisfies Record<string, FieldType>;

export const hookEvents = {
  PreToolUse: {
    description: 'Before a tool call runs; can allow, deny, ask or rewrite its input.',
    http: true,
    fields: { tool_name: 'String', tool_input: 'JSON', tool_use_id: 'String', mcp_server: 'JSON' },
  },
  PostToolUse: {
    description: 'After a tool call succeeded, with its response and run time (duration_ms).',
    http: true,
    fields: {
      tool_name: 'String',
      tool_input: 'JSON',
      tool_response: 'JSON',
      tool_use_id: 'String',
      duration_ms: 'Int',
      mcp_server: 'JSON',
    },
  },
  PostToolUseFailure: {
    description: 'After a tool call failed or was interrupted (error, is_interrupt).',
    http: true,
    fields: {
      tool_name: 'String',
      tool_input: 'JSON',
      tool_use_id: 'String',
      error: 'String',
      is_interrupt: 'Boolean',
      duration_ms: 'Int',
      mcp_server: 'JSON',
    },
  },
  PostToolBatch: {
    description: 'Once after every tool call of a batch resolved, before the next model request.',
    http: true,
    fields: { tool_calls: 'JSON' },
  },
  Notification: {
    description:
      'When Claude Code shows a notification (notification_type e.g. permission_prompt, idle_prompt, elicitation_complete, auth_success).',
    http: true,
    fields: { message: 'String', title: 'String', notification_type: 'String' },
  },
  UserPromptSubmit: {
    description:
      'When a prompt is submitted, before the model sees it (source: user | sdk | system | loop_wakeup | schedule_wakeup | poll_event).',
    http: true,
    // `source` is in the 2.1.328 schema but that build's payload code does not set it yet.
    fields: { prompt: 'String', source: 'String', session_title: 'String' },
  },
  UserPromptExpansion: {
    description:
      'When a slash command or MCP prompt is expanded into a prompt (expansion_type: slash_command | mcp_prompt).',
    http: true,
    fields: {
      expansion_type: 'String',
      command_name: 'String',
      command_args: 'String',
      command_source: 'String',
      prompt: 'String',
    },
  },
  SessionStart: {
    description:
      'When a session starts or restarts (source: startup | resume | clear | compact | fork); command hooks only.',
    http: false,
    fields: {
      source: 'String',
      model: 'String',
      session_title: 'String',
      seconds_since_last_response: 'Int',
      context_tokens: 'Int',
      prompt_cache_likely_expired: 'Boolean',
      estimated_cache_write_usd: 'Float',
    },
  },
  SessionEnd: {
    description:
      'When a session ends (reason: clear | resume | logout | prompt_input_exit | other).',
    http: true,
    fields: { reason: 'String' },
  },
  Stop: {
    description: 'When the main agent finishes its turn; can block to make it continue.',
    http: true,
    fields: {
      stop_hook_active: 'Boolean',
      last_assistant_message: 'String',
      background_tasks: 'JSON',
      session_crons: 'JSON',
    },
  },
  StopFailure: {
    description:
      'When a turn ends on an API error (error: authentication_failed | rate_limit | overloaded | server_error | max_output_tokens | unknown | ...).',
    http: true,
    fields: { error: 'String', error_details: 'String', last_assistant_message: 'String' },
  },
  SubagentStart: {
    description:
      'When a subagent starts (agent_id and agent_type, from commonFields, are always set).',
    http: true,
    fields: {},
  },
  SubagentStop: {
    description:
      'When a subagent finishes (agent_id and agent_type, from commonFields, are always set).',
    http: true,
    fields: {
      stop_hook_active: 'Boolean',
      agent_transcript_path: 'String',
      last_assistant_message: 'String',
      background_tasks: 'JSON',
      session_crons: 'JSON',
    },
  },
  PreCompact: {
    description: 'Before the conversation is compacted (trigger: manual | auto).',
    http: true,
    fields: { trigger: 'String', custom_instructions: 'String' },
  },
  PostCompact: {
    description: 'After the conversation was compacted, with the summary (trigger: manual | auto).',
    http: true,
    fields: { trigger: 'String', compact_summary: 'String' },
  },
  PreModelSwitch: {
    description:
      'Before the model is switched; can refuse it (source: command | picker | sdk; cache_ttl: 5m | 1h; pricing: configured | catalog | default).',
    http: true,
    fields: {
      from_model: 'String',
      to_model: 'String',
      requested_model: 'String',
      source: 'String',
      context_tokens: 'Int',
      prompt_cache_warm: 'Boolean',
      cache_ttl: 'String',
      estimated_cache_write_usd: 'Float',
      pricing: 'String',
    },
  },
  PostModelSwitch: {
    description:
      'After the model was switched (source: command | picker | sdk | auto | resume; cache_ttl: 5m | 1h; pricing: configured | catalog | default).',
    http: true,
    fields: {
      from_model: 'String',
      to_model: 'String',
      requested_model: 'String',
      source: 'String',
      context_tokens: 'Int',
      prompt_cache_warm: 'Boolean',
      cache_ttl: 'String',
      estimated_cache_write_usd: 'Float',
      pricing: 'String',
    },
  },
  PermissionRequest: {
    description: 'When a permission dialog is about to be shown; can allow or deny in its place.',
    http: true,
    fields: {
      tool_name: 'String',
      tool_input: 'JSON',
      permission_suggestions: 'JSON',
      mcp_server: 'JSON',
    },
  },
  PermissionDenied: {
    description: 'When a tool call was denied by the permission system, with the reason.',
    http: true,
    fields: {
      tool_name: 'String',
      tool_input: 'JSON',
      tool_use_id: 'String',
      reason: 'String',
      mcp_server: 'JSON',
    },
  },
  Setup: {
    description: 'On repository setup (trigger: init | maintenance); command hooks only.',
    http: false,
    fields: { trigger: 'String' },
  },
  TeammateIdle: {
    description: 'When an agent-team teammate goes idle (team_name is deprecated).',
    http: true,
    fields: { teammate_name: 'String', team_name: 'String' },
  },
  TaskCreated: {
    description: 'When a task is created in the task list (team_name is deprecated).',
    http: true,
    fields: {
      task_id: 'String',
      task_subject: 'String',
      task_description: 'String',
      teammate_name: 'String',
      team_name: 'String',
    },
  },
  TaskCompleted: {
    description: 'When a task is marked completed (team_name is deprecated).',
    http: true,
    fields: {
      task_id: 'String',
      task_subject: 'String',
      task_description: 'String',
      teammate_name: 'String',
      team_name: 'String',
    },
  },
  Elicitation: {
    description: 'When an MCP server asks the user for input (mode: form | url); can answer it.',
    http: true,
    fields: {
      mcp_server_name: 'String',
      message: 'String',
      mode: 'String',
      url: 'String',
      elicitation_id: 'String',
      requested_schema: 'JSON',
    },
  },
  ElicitationResult: {
    description:
      'After the user answered an MCP elicitation, before it is sent (action: accept | decline | cancel; mode: form | url).',
    http: true,
    fields: {
      mcp_server_name: 'String',
      elicitation_id: 'String',
      mode: 'String',
      action: 'String',
      content: 'JSON',
    },
  },
  ConfigChange: {
    description:
      'When a settings source changes (source: user_settings | project_settings | local_settings | policy_settings | skills).',
    http: true,
    fields: { source: 'String', file_path: 'String' },
  },
  WorktreeCreate: {
    description: 'When a git worktree is to be created; a hook can create it and return its path.',
    http: true,
    fields: { name: 'String' },
  },
  WorktreeRemove: {
    description: 'When a git worktree is to be removed.',
    http: true,
    fields: { worktree_path: 'String' },
  },
  InstructionsLoaded: {
    description:
      'When a CLAUDE.md / rules file is loaded (memory_type: User | Project | Local | Managed; load_reason: session_start | nested_traversal | path_glob_match | include | compact).',
    http: true,
    fields: {
      file_path: 'String',
      memory_type: 'String',
      load_reason: 'String',
      globs: 'JSON',
      trigger_file_path: 'String',
      parent_file_path: 'String',
    },
  },
  CwdChanged: {
    description: 'When the working directory changes.',
    http: true,
    fields: { old_cwd: 'String', new_cwd: 'String' },
  },
  FileChanged: {
    description: 'When a watched file changes (event: change | add | unlink).',
    http: true,
    fields: { file_path: 'String', event: 'String' },
  },
  DirectoryAdded: {
    description:
      'When a working directory is added (source: slash_command for /add-dir | register_repo_root).',
    http: true,
    fields: { directory: 'String', source: 'String' },
  },
  MessageDisplay: {
    description:
      'With each batch of newly completed lines while an assistant message streams (display only).',
    http: true,
    fields: {
      turn_id: 'String',
      message_id: 'String',
      index: 'Int',
      final: 'Boolean',
      delta: 'String',
    },
  },
  PreSkillShellCommand: {
    description:
      "Before a shell command in a skill's or slash command's text (`!`-backtick) runs as it loads; can refuse it (invoked_by: user | claude | other). Since 2.1.332.",
    http: true,
    fields: {
      tool_name: 'String',
      tool_input: 'JSON',
      tool_use_id: 'String',
      command_name: 'String',
      command_source: 'String',
      invoked_by: 'String',
    },
  },
} as const satisfies Record<string, HookEventSpec>;

export type HookEventName = keyof typeof hookEvents;

export const hookEventNames = Object.keys(hookEvents) as HookEventName[];

export function isKnownHookEvent(name: string): name is HookEventName {
  return Object.hasOwn(hookEvents, name);
}

/**
 * Events the hub itself puts in a session's stream, typed like hook events. Claude Code never
 * posts them, and the hook endpoint refuses a posted event with one of these names.
 */
export const hubEvents = {
  HubEventsMissed: {
    description:
      'The hub was down while the session went on, so the hook events of that time never arrived; says what the transcript shows happened meanwhile.',
    http: false,
    fields: {
      since: 'String',
      until: 'String',
      step_count: 'Int',
      steps: 'JSON',
      turn_over: 'Boolean',
    },
  },
  HubPermissionResolved: {
    description:
      'A permission request was settled: ALLOWED or DENIED through the API or by a permission rule, ANSWERED_IN_TERMINAL, or EXPIRED. `decided_by` says who (`rule <name>`, `token <name>`, `terminal`, `expiry`), `explanation` what a rule matched.',
    http: false,
    fields: {
      request_id: 'String',
      tool_name: 'String',
      status: 'String',
      message: 'String',
      decided_by: 'String',
      explanation: 'String',
    },
  },
  HubStopRefused: {
    description:
      "A permission rule on STOP sent claude back to work at the end of its turn (once per turn): `reason` is what claude was told, `rule` the rule's name, `explanation` what it matched.",
    http: false,
    fields: {
      rule: 'String',
      reason: 'String',
      explanation: 'String',
    },
  },
  HubBudgetReached: {
    description:
      "The session's spending reached a budget after a turn: its queued messages wait until the budget is raised (raiseBudget, setBudget). `scope` is SESSION, LABEL or TOKEN, `key` the session id, label or token name, `usd` the budget and `spent_usd` what was spent.",
    http: false,
    fields: { scope: 'String', key: 'String', usd: 'Float', spent_usd: 'Float' },
  },
  HubBudgetRaised: {
    description:
      'The budget that held the session was raised or removed: its queued messages go on. `scope`, `key` and `usd` (null: removed) say which and to what.',
    http: false,
    fields: { scope: 'String', key: 'String', usd: 'Float' },
  },
  HubUsageLimited: {
    description:
      "A usage or rate limit of the session's account holds it: claude reported it (StopFailure `rate_limit`) in this session or another on the same account (`account`), on this node or another. Its queued messages wait until `until` (ISO time). `kind` is the limit claude named (`five_hour`, `seven_day`; null when it named none), `reset` CLAUDE when claude gave the reset time or BACKOFF when the hub chose the wait, `cut_off` whether it ended this session's turn.",
    http: false,
    fields: {
      account: 'String',
      until: 'String',
      kind: 'String',
      reset: 'String',
      cut_off: 'Boolean',
    },
  },
  HubUsageLimitReset: {
    description:
      'The usage limit that held the session reset: its messages go on, a turn the limit cut off first (`continued`: the hub asked claude to go on with it).',
    http: false,
    fields: { account: 'String', continued: 'Boolean' },
  },
  StreamMessage: {
    description:
      "A line a HEADLESS session's claude printed on its stream-json output (system, assistant, user, result, control_request, ...): `message` is the line as JSON; a line that is not JSON is kept as text with type `not_json`. `interrupted` is true on the `result` line of a turn the hub had asked claude to interrupt.",
    http: false,
    fields: {
      type: 'String',
      subtype: 'String',
      message: 'JSON',
      interrupted: 'Boolean',
    },
  },
  ChannelMessage: {
    description:
      "The session sent a message to a channel with the hub's send_to_channel tool; `channel_seq` is its seq in the channel (see channelMessages).",
    http: false,
    fields: {
      channel: 'String',
      text: 'String',
      channel_seq: 'Int',
    },
  },
  HubTurnEnded: {
    description:
      'A turn ended without a Stop: interrupted through the API, or its claude stopped or crashed mid-turn (reason: interrupted | stopped | crashed).',
    http: false,
    fields: {
      reason: 'String',
      error: 'String',
    },
  },
} as const satisfies Record<string, HookEventSpec>;

export type HubEventName = keyof typeof hubEvents;

export function isHubEvent(name: string): name is HubEventName {
  return Object.hasOwn(hubEvents, name);
}

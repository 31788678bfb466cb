/** The CLI's --permission-mode values, keyed by the GraphQL enum. */
export const permissionModes = {
  DEFAULT: 'default',
  ACCEPT_EDITS: 'acceptEdits',
  AUTO: 'auto',
  BYPASS_PERMISSIONS: 'bypassPermissions',
  DONT_ASK: 'dontAsk',
  PLAN: 'plan',
} as const;
export type PermissionModeName = keyof typeof permissionModes;

export interface ClaudeCommandOptions {
  readonly claudeBin: string;
  readonly sessionId: string;
  readonly settingsPath: string;
  /** The hub's MCP server for the session (--mcp-config). */
  readonly mcpConfigPath?: string | null | undefined;
  readonly model?: string | null | undefined;
  readonly permissionMode?: string | null | undefined;
  /** Continue an existing conversation instead of starting one with this id. */
  readonly resume?: boolean;
}

/** The argv that starts claude for a session; never passed through a shell. */
export function claudeCommand(options: ClaudeCommandOptions): string[] {
  const argv = [
    options.claudeBin,
    options.resume ? '--resume' : '--session-id',
    options.sessionId,
    '--settings',
    options.settingsPath,
  ];
  if (options.mcpConfigPath) argv.push('--mcp-config', options.mcpConfigPath);
  if (options.model) argv.push('--model', options.model);
  if (options.permissionMode) argv.push('--permission-mode', options.permissionMode);
  return argv;
}

/**
 * What makes claude headless: one long-lived process that takes each prompt as a user line on
 * stdin, prints every message as a JSON line, and asks for permissions on its stdout.
 */
export const headlessArgs = [
  '-p',
  '--input-format',
  'stream-json',
  '--output-format',
  'stream-json',
  '--verbose',
  '--permission-prompt-tool',
  'stdio',
] as const;

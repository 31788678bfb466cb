/** What a tool call is, for a person reading a run: its kind, a title and the input it had. */
export const ActionKind = {
  Command: 'COMMAND',
  FileChange: 'FILE_CHANGE',
  Read: 'READ',
  WebSearch: 'WEB_SEARCH',
  Subagent: 'SUBAGENT',
  Mcp: 'MCP',
  Tool: 'TOOL',
  Warning: 'WARNING',
} as const;
export type ActionKind = (typeof ActionKind)[keyof typeof ActionKind];

export const ActionPhase = { Started: 'STARTED', Completed: 'COMPLETED' } as const;
export type ActionPhase = (typeof ActionPhase)[keyof typeof ActionPhase];

/** One phase of one action of a turn. */
export interface Action {
  /** The tool call's id, the same at both phases. */
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  /** The seq of the event that produced this phase. */
  readonly seq: number;
  readonly kind: ActionKind;
  readonly phase: ActionPhase;
  readonly title: string;
  readonly toolName: string | null;
  readonly ok: boolean | null;
  /** Null where a turn index keeps the action without it (see TurnIndex.detail). */
  readonly detail: Readonly<Record<string, unknown>> | null;
  readonly startedAt: number;
  readonly completedAt: number | null;
  readonly durationMs: number | null;
}

/** A file a FILE_CHANGE action adds, updates or deletes. */
export interface FileChange {
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
}

/** The tools that write files. */
export const fileTools: ReadonlySet<string> = new Set([
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
]);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The path a file tool works on. */
const filePath = (input: Record<string, unknown>) =>
  text(input.file_path) ?? text(input.notebook_path) ?? text(input.path);

/** The kind, title and input of a tool call, from its name and input. Pure. */
export function describeTool(
  toolName: string,
  input: Record<string, unknown>,
): { kind: ActionKind; title: string } {
  if (toolName === 'Bash')
    return { kind: ActionKind.Command, title: text(input.command) ?? toolName };
  if (fileTools.has(toolName))
    return { kind: ActionKind.FileChange, title: filePath(input) ?? toolName };
  if (toolName === 'Read') {
    const path = filePath(input);
    return { kind: ActionKind.Read, title: path ? `Read ${path}` : toolName };
  }
  if (toolName === 'WebSearch')
    return { kind: ActionKind.WebSearch, title: text(input.query) ?? toolName };
  if (toolName === 'Task' || toolName === 'Agent') {
    const type = text(input.subagent_type) ?? text(input.description) ?? toolName;
    return { kind: ActionKind.Subagent, title: type };
  }
  const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
  if (mcp) return { kind: ActionKind.Mcp, title: `${mcp[1]}/${mcp[2]}` };
  return { kind: ActionKind.Tool, title: toolName };
}

/**
 * What a completed file tool changed. Write says in its response whether it created the file;
 * an edit updates one that exists.
 */
export function fileChanges(
  toolName: string,
  input: Record<string, unknown>,
  response: unknown,
): FileChange[] {
  if (!fileTools.has(toolName)) return [];
  const path =
    filePath(input) ??
    (typeof response === 'object' && response !== null
      ? text((response as Record<string, unknown>).filePath)
      : undefined);
  if (!path) return [];
  const created =
    toolName === 'Write' &&
    typeof response === 'object' &&
    response !== null &&
    (response as Record<string, unknown>).type === 'create';
  return [{ path, kind: created ? 'add' : 'update' }];
}

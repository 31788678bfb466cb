import type { CliTailSubscription } from '../gql/graphql.js';

export type TailEvent = CliTailSubscription['sessionEvents'];

const codes = { dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
export type Colour = keyof typeof codes;

/** Paints text with ANSI colours, or leaves it plain (not a TTY, or NO_COLOR set). */
export function painter(enabled: boolean) {
  return (colour: Colour, text: string) =>
    enabled ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text;
}

function short(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One readable line per event: seq, time, name, and what matters about it. */
export function describeEvent(event: TailEvent, paint: ReturnType<typeof painter>): string {
  const time = event.receivedAt.slice(11, 19);
  const head = `${paint('dim', `#${event.seq} ${time}`)} ${event.eventName}`;
  switch (event.__typename) {
    case 'UserPromptSubmitEvent':
      return `${head} ${paint('cyan', short(event.prompt))}`;
    case 'PreToolUseEvent':
      return `${head} ${paint('yellow', event.toolName ?? '')} ${short(event.toolInput)}`;
    case 'PermissionRequestEvent':
      return `${head} ${paint('magenta', event.toolName ?? '')} ${short(event.toolInput)}`;
    case 'PostToolUseEvent':
      return `${head} ${paint('green', event.toolName ?? '')} (${event.durationMs ?? '?'} ms) ${short(event.toolResponse)}`;
    case 'NotificationEvent':
      return `${head} ${paint('magenta', short(event.message))}`;
    case 'StopEvent':
      return `${head} ${paint('blue', short(event.lastAssistantMessage ?? ''))}`;
    case 'SessionEndEvent':
      return `${head} reason=${event.reason ?? '?'}`;
    default:
      return head;
  }
}

/** "3s", "4m", "2h", "5d": how long since a moment. */
export function age(since: string | null | undefined, now = Date.now()): string {
  if (!since) return '-';
  const seconds = Math.max(0, Math.round((now - Date.parse(since)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

/** Rows as aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths![column]!)))
        .join('  '),
    )
    .join('\n');
}

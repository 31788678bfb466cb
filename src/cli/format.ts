import type {
  CliActionsSubscription,
  CliAttentionItemFragment,
  CliChannelMessagesSubscription,
  CliTailSubscription,
  CliTurnsSubscription,
} from '../gql/graphql.js';

export type TailEvent = CliTailSubscription['sessionEvents'];
export type TailAction = CliActionsSubscription['sessionActions'];
export type FollowedTurn = CliTurnsSubscription['turns'];
export type HeardMessage = CliChannelMessagesSubscription['channelMessages'];
export type AttentionEntry = CliAttentionItemFragment;

const codes = { dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
export type Colour = keyof typeof codes;

/** Paints text with ANSI colours, or leaves it plain (not a TTY, or NO_COLOR set). */
export function painter(enabled: boolean) {
  return (colour: Colour, text: string) =>
    enabled ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text;
}

/** One line of at most `max` characters (JSON for a non-string), cut with an ellipsis. */
export function short(value: unknown, max = 160): string {
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

const seconds = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '' : `${(ms / 1000).toFixed(1)} s`;

/**
 * One line per phase of an action: `▸ command  ls -la` when it starts, `✓ command  ls -la  2.0 s`
 * when it completes (`✗` when not ok), `!` for a warning.
 */
export function describeAction(action: TailAction, paint: ReturnType<typeof painter>): string {
  const kind = action.kind.toLowerCase().replace('_', ' ');
  const title = short(action.title, 120);
  if (action.kind === 'WARNING') return `${paint('magenta', '!')} ${kind}  ${title}`;
  if (action.phase === 'STARTED') return `${paint('yellow', '▸')} ${kind}  ${title}`;
  const mark = action.ok ? paint('green', '✓') : paint('red', '✗');
  return [`${mark} ${kind}  ${title}`, seconds(action.durationMs)].filter(Boolean).join('  ');
}

/** One line per completed turn: its number, status, prompt, answer and what it cost. */
export function describeTurn(turn: FollowedTurn, paint: ReturnType<typeof painter>): string {
  const usage = turn.usage as { input_tokens?: number; output_tokens?: number } | null;
  const status = turn.ok ? paint('green', turn.status) : paint('red', turn.status);
  const facts = [
    seconds(turn.durationMs),
    `${turn.actions.length} action${turn.actions.length === 1 ? '' : 's'}`,
    usage ? `${usage.input_tokens ?? 0} in / ${usage.output_tokens ?? 0} out tokens` : '',
  ].filter(Boolean);
  return [
    `${paint('dim', `${turn.sessionId.slice(0, 8)} #${turn.number}`)} ${status}`,
    paint('cyan', short(turn.prompt ?? '', 60)),
    '→',
    short(turn.answer ?? turn.error ?? '', 80),
    paint('dim', `(${facts.join(', ')})`),
  ].join(' ');
}

/**
 * A channel message as `#3 12:00:01 1a2b3c4d text`: its seq, time, the start of the sending
 * session's id, and the text, whose further lines are indented so each message stands apart.
 */
export function describeChannelMessage(
  message: HeardMessage,
  paint: ReturnType<typeof painter>,
): string {
  const head = paint('dim', `#${message.seq} ${message.at.slice(11, 19)}`);
  const text = message.text.replace(/\r?\n/g, '\n  ');
  return `${head} ${paint('cyan', message.sessionId.slice(0, 8))} ${text}`;
}

/** What a person needs to know to act on an attention item, on one line. */
export function attentionDetail(item: AttentionEntry): string {
  switch (item.reason) {
    case 'PERMISSION':
      return item.permissionRequest
        ? `${item.permissionRequest.id} ${item.permissionRequest.toolName} ${short(item.permissionRequest.toolInput, 100)}`
        : '';
    case 'BLOCKED':
      return item.session.blockedReason ?? '';
    case 'CRASHED':
    case 'DISCONNECTED':
      return short(item.session.error?.split('\n')[0] ?? '');
    case 'BUDGET_REACHED': {
      const hold = item.session.budgetHold;
      return hold
        ? `${hold.scope.toLowerCase()} ${hold.key}: $${hold.spentUsd.toFixed(4)} of $${hold.usd} spent (raiseBudget lets it go on)`
        : '';
    }
    case 'IDLE':
      return short(item.lastAssistantMessage ?? '', 100);
  }
}

/** One line per item raised: time, reason, session, what. */
export function describeRaised(item: AttentionEntry, paint: ReturnType<typeof painter>): string {
  const session = item.session.name
    ? `${item.session.id.slice(0, 8)} (${item.session.name})`
    : item.session.id;
  const colour =
    item.reason === 'PERMISSION' ? 'magenta' : item.reason === 'IDLE' ? 'green' : 'red';
  return `${paint('dim', item.since.slice(11, 19))} ${paint(colour, item.reason)} ${paint('cyan', session)} ${attentionDetail(item)}`;
}

/** A rule's match, as a permission rule's parts are named in a policy file. */
export interface MatchParts {
  readonly tools?: readonly string[] | null;
  readonly input?: readonly { readonly path: string; readonly pattern: string }[] | null;
  readonly cwdUnder?: readonly string[] | null;
  readonly labels?: readonly string[] | null;
  readonly runtime?: string | null;
  readonly origin?: string | null;
  readonly token?: string | null;
}

/**
 * A rule's match on one line: `tools=Bash input=command:git push* cwd=/repo`, each list's items
 * joined by `|` (any one holds); `*` when it has no part and so matches everything.
 */
export function describeMatch(match: MatchParts): string {
  const parts = [
    match.tools && `tools=${match.tools.join('|')}`,
    match.input && `input=${match.input.map((i) => `${i.path}:${i.pattern}`).join('|')}`,
    match.cwdUnder && `cwd=${match.cwdUnder.join('|')}`,
    match.labels && `labels=${match.labels.join('|')}`,
    match.runtime && `runtime=${match.runtime}`,
    match.origin && `origin=${match.origin}`,
    match.token && `token=${match.token}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : '*';
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

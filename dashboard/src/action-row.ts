/**
 * A tool call as a timeline row, from the API's actions: its kind and title, running until its
 * COMPLETED phase arrives, then done or failed with its output. A WARNING (a permission denied)
 * is a row of its own.
 */
import type { DashboardSessionActionsSubscription } from '../../src/gql/graphql.js';
import { duration, elapsed, timeOfDay } from './clock.js';
import { el, fill } from './dom.js';
import { toolResult, toolSummary } from './tool-text.js';

export type Action = DashboardSessionActionsSubscription['sessionActions'];

/**
 * Output longer than this is cut, saying how much was left out: a tool's response can be tens
 * of kilobytes, and the timeline keeps up to 2,000 rows.
 */
const maxOutput = 10_000;

/** Kinds whose title names the tool rather than what it was asked, so the input is shown too. */
const inputShown = new Set<Action['kind']>(['TOOL', 'MCP', 'SUBAGENT']);

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function clip(output: string): string {
  if (output.length <= maxOutput) return output;
  return `${output.slice(0, maxOutput)}\n… ${output.length - maxOutput} more characters`;
}

/** What the call gave back: its error, the files it changed, or its response. */
function outputOf(action: Action): string {
  const detail = record(action.detail);
  if (action.kind === 'WARNING') return text(detail.reason);
  if (action.phase === 'STARTED') return '';
  if (action.ok === false) return text(detail.error);
  if (Array.isArray(detail.changes)) {
    return detail.changes
      .map((change) => `${text(record(change).kind)} ${text(record(change).path)}`)
      .join('\n');
  }
  return detail.response === undefined ? '' : toolResult(detail.response);
}

function outcomeOf(action: Action): HTMLElement | null {
  if (action.kind === 'WARNING') return null;
  if (action.phase === 'STARTED') {
    return el('span', { class: 'outcome' }, 'running for ', elapsed(action.startedAt));
  }
  const took = duration(action.durationMs ?? 0);
  if (action.ok) return el('span', { class: 'outcome' }, `took ${took}`);
  const how = record(action.detail).interrupted === true ? 'interrupted' : 'failed';
  return el('span', { class: 'outcome' }, `${how} after ${took}`);
}

function stateOf(action: Action): string {
  if (action.kind === 'WARNING') return 'warning';
  if (action.phase === 'STARTED') return 'running';
  return action.ok ? 'done' : 'failed';
}

/**
 * Shows the action's latest phase in its row, the same element at every phase. The row keeps
 * the seq of the first phase it showed: that is where it sits in the timeline.
 */
export function renderAction(row: HTMLLIElement, action: Action): void {
  row.dataset.firstSeq ??= String(action.seq);
  Object.assign(row.dataset, {
    actionId: action.id,
    actionSeq: String(action.seq),
    kind: action.kind,
    phase: action.phase,
  });
  row.className = `event action ${stateOf(action)}`;
  const input = inputShown.has(action.kind)
    ? toolSummary(action.toolName, record(action.detail).input)
    : '';
  const output = clip(outputOf(action));
  fill(
    row,
    el('span', { class: 'seq' }, `#${row.dataset.firstSeq}`),
    el('time', { class: 'at', datetime: action.startedAt }, timeOfDay(action.startedAt)),
    el('span', { class: 'label' }, action.kind.toLowerCase().replace('_', ' ')),
    el(
      'div',
      { class: 'body' },
      el('pre', { class: 'title' }, input ? `${action.title}: ${input}` : action.title),
      outcomeOf(action),
      output ? el('pre', { class: 'output' }, output) : null,
    ),
  );
}

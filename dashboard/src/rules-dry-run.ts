/**
 * The dry run under the rules: the enabled rules as listed, tried on the tool calls the hub
 * stored over a chosen period (Query.policyDryRun, which changes nothing), with how many calls
 * each decision would take, how many would go otherwise than they went, and examples of them.
 */
import type { DashboardPolicyDryRunQuery } from '../../src/gql/graphql.js';
import { timeOfDay } from './clock.js';
import { button, el, fill } from './dom.js';
import type { HubClient } from './hub-client.js';
import { sessionLabel, type HubState } from './hub-state.js';
import { showError } from './notice.js';
import { PolicyDryRunQuery } from './rule-operations.js';
import { ruleInput, type Rule } from './rule-text.js';
import { toolSummary } from './tool-text.js';

type DryRun = DashboardPolicyDryRunQuery['policyDryRun'];
type Example = DryRun['examples'][number];

/** The periods offered, in days; a week is chosen at first. */
const periods = [
  { days: 1, label: 'last day' },
  { days: 7, label: 'last 7 days' },
  { days: 30, label: 'last 30 days' },
] as const;

const dayMs = 86_400_000;

function count(name: string, value: number, label = name): HTMLElement {
  return el(
    'span',
    { class: 'dry-run-count', 'data-count': name },
    el('strong', {}, String(value)),
    ` ${label}`,
  );
}

export function dryRunPart(
  hub: HubClient,
  rules: () => readonly Rule[],
  state: HubState,
  open: (sessionId: string) => void,
): HTMLElement {
  const since = el(
    'select',
    { id: 'dry-run-since', 'aria-label': 'Period' },
    ...periods.map(({ days, label }) =>
      el('option', { value: String(days), selected: days === 7 }, label),
    ),
  );
  const result = el('div', { id: 'dry-run-result', 'aria-live': 'polite' });

  function example(call: Example): HTMLLIElement {
    const session = el(
      'button',
      { type: 'button', class: 'link' },
      sessionLabel(state.sessions.get(call.sessionId), call.sessionId),
    );
    session.addEventListener('click', () => open(call.sessionId));
    const changed = call.then !== call.now;
    return el(
      'li',
      { class: changed ? 'changed' : '', 'data-session-id': call.sessionId },
      el(
        'div',
        {},
        session,
        ' ',
        el('strong', {}, call.toolName),
        ' ',
        el('time', { class: 'at', datetime: call.at, title: call.at }, timeOfDay(call.at)),
      ),
      el('pre', { class: 'tool-input' }, toolSummary(call.toolName, call.toolInput)),
      el(
        'div',
        { class: 'dry-run-outcome' },
        el('span', { class: `badge outcome-${call.then}` }, call.then),
        ' -> ',
        el('span', { class: `badge outcome-${call.now}` }, call.now),
        ' ',
        call.rule ? `by rule ${call.rule}` : 'no rule matches',
        call.thenDecidedBy ? ` (then: ${call.thenDecidedBy})` : '',
      ),
      call.explanation ? el('div', { class: 'explanation' }, call.explanation) : null,
    );
  }

  function show(run: DryRun, tried: number): void {
    const calls = `call${run.calls === 1 ? '' : 's'} of ${run.sessions} session${run.sessions === 1 ? '' : 's'}`;
    fill(
      result,
      el(
        'div',
        { class: 'dry-run-counts' },
        count('calls', run.calls, calls),
        count('allowed', run.allowed),
        count('denied', run.denied),
        count('asked', run.asked),
        count('changed', run.changed),
      ),
      el(
        'p',
        { class: 'dry-run-note' },
        `${tried} enabled rule${tried === 1 ? '' : 's'} tried. Each example: what happened then -> what the rules decide now.`,
        run.truncated ? ' The history was longer than the hub reads: the counts are of part.' : '',
      ),
      run.examples.length > 0
        ? el('ol', { class: 'dry-run-examples' }, ...run.examples.map(example))
        : el('p', { class: 'empty' }, 'No tool call in the period.'),
    );
  }

  async function run(): Promise<void> {
    const enabled = rules().filter((rule) => rule.enabled);
    const days = Number(since.value);
    try {
      const { policyDryRun } = await hub.request(PolicyDryRunQuery, {
        rules: enabled.map((rule) => ruleInput(rule)),
        since: new Date(Date.now() - days * dayMs).toISOString(),
      });
      show(policyDryRun, enabled.length);
    } catch (error) {
      fill(result, el('p', { class: 'error' }, 'The dry run failed.'));
      showError(error);
    }
  }

  return el(
    'div',
    { id: 'dry-run' },
    el('h3', {}, 'Dry run'),
    el(
      'p',
      {},
      'What the enabled rules above would have decided for the tool calls the hub stored. Nothing changes.',
    ),
    el(
      'div',
      { class: 'controls' },
      since,
      button('Dry run', run, showError, { class: 'dry-run-start' }),
    ),
    result,
  );
}

/**
 * The permission rules, in the order the hub tries them (the disabled ones last), each with its
 * decision, trigger, priority, match and source. A rule made through the API has a switch that
 * puts it in or out of force (updatePermissionRule with its own fields, `enabled` changed: admin
 * scope); a rule of the policy file is read-only here. The list follows Subscription
 * permissionRules: whoever changes a rule, on whichever node, or the policy file, it shows.
 */
import './rules.css';
import { el, fill } from './dom.js';
import { HubError, type HubClient } from './hub-client.js';
import { showError, showNotice } from './notice.js';
import { PermissionRulesSubscription, UpdatePermissionRuleMutation } from './rule-operations.js';
import { matchSummary, ruleInput, type Rule } from './rule-text.js';

export interface RulesPanel {
  readonly element: HTMLElement;
  /** Follows the rules: the list now, then each change. */
  follow(): void;
  /** The rules as last read, in the order they are tried. */
  readonly rules: readonly Rule[];
}

const triggerText = { TOOL_CALL: 'tool call', STOP: 'stop' } as const;

function ruleSource(rule: Rule): HTMLElement {
  if (rule.source === 'FILE')
    return el(
      'div',
      { class: 'rule-source' },
      'policy file ',
      el('code', {}, rule.createdBy ?? ''),
      ' (read-only: change the file)',
    );
  return el('div', { class: 'rule-source' }, rule.createdBy ? `API, by ${rule.createdBy}` : 'API');
}

export function rulesPanel(hub: HubClient): RulesPanel {
  const list = el(
    'ol',
    { id: 'rules', class: 'cards' },
    el('li', { class: 'empty' }, 'Loading...'),
  );
  let rules: Rule[] = [];

  async function setEnabled(rule: Rule, enabled: boolean, toggle: HTMLInputElement) {
    toggle.disabled = true;
    try {
      await hub.request(UpdatePermissionRuleMutation, {
        id: rule.id,
        input: ruleInput(rule, { enabled }),
      });
      showNotice(`Rule ${rule.name} ${enabled ? 'enabled' : 'disabled'}.`);
    } catch (error) {
      toggle.checked = rule.enabled;
      toggle.disabled = false;
      showError(error);
    }
    // The subscription brings the list again: disabled, it moves last; enabled, to its place.
  }

  function row(rule: Rule, place: number): HTMLLIElement {
    const toggle = el('input', {
      type: 'checkbox',
      class: 'rule-toggle',
      role: 'switch',
      checked: rule.enabled,
      disabled: rule.source === 'FILE',
      'aria-label': `${rule.name} enabled`,
      title:
        rule.source === 'FILE'
          ? 'A rule of the policy file: change it in the file'
          : 'In force (admin scope to change)',
    });
    toggle.addEventListener('change', () => void setEnabled(rule, toggle.checked, toggle));
    return el(
      'li',
      {
        class: `rule${rule.enabled ? '' : ' disabled'}`,
        'data-rule-id': rule.id,
        'data-rule-name': rule.name,
        'data-enabled': String(rule.enabled),
        'data-source': rule.source,
      },
      el(
        'div',
        { class: 'rule-head' },
        el('span', { class: 'rule-place' }, rule.enabled ? `${place}.` : '-'),
        el('strong', { class: 'name' }, rule.name),
        el('span', { class: `badge decision decision-${rule.decision}` }, rule.decision),
        el('span', { class: 'badge rule-on' }, `on ${triggerText[rule.on]}`),
        el('span', { class: 'rule-priority' }, `priority ${rule.priority}`),
        el('label', { class: 'rule-switch' }, toggle, rule.enabled ? ' on' : ' off'),
      ),
      el('code', { class: 'rule-match' }, matchSummary(rule.match)),
      rule.message ? el('div', { class: 'rule-message' }, rule.message) : null,
      ruleSource(rule),
    );
  }

  function show(next: readonly Rule[]): void {
    rules = [...next];
    let place = 0;
    fill(list, ...rules.map((rule) => row(rule, rule.enabled ? ++place : 0)));
    if (rules.length === 0)
      list.append(
        el(
          'li',
          { class: 'empty' },
          'No rule: every tool call goes as claude and its permission mode decide.',
        ),
      );
  }

  function failed(error: unknown): void {
    const forbidden = error instanceof HubError && error.code === 'FORBIDDEN';
    fill(
      list,
      el(
        'li',
        { class: 'empty error' },
        forbidden ? 'This token may not read the rules.' : 'The rules could not be read.',
      ),
    );
    showError(error);
  }

  // graphql-ws subscribes again after a reconnect, and the list comes first again.
  const follow = () =>
    void hub.subscribe(
      PermissionRulesSubscription,
      {},
      { next: ({ permissionRules }) => show(permissionRules), error: failed },
    );

  return {
    element: list,
    follow,
    get rules() {
      return rules;
    },
  };
}

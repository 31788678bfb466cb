/**
 * The files a turn changed, under its summary row: a "changes" switch that asks the hub for that
 * one turn's changes when first opened (the hub runs git for them, so no stream asks), then each
 * file by kind and path; a file opens to its unified diff and who allowed each call that changed
 * it. Paths and diffs are the session's data, so they go in as text only.
 */
import type { DashboardTurnChangesQuery } from '../../src/gql/graphql.js';
import { el, fill } from './dom.js';
import type { HubClient } from './hub-client.js';
import { TurnChangesQuery } from './operations.js';
import './turn-changes.css';

export type FileChange = NonNullable<DashboardTurnChangesQuery['turn']>['changes'][number];
type Approval = FileChange['approvedBy'][number];

/** How one call was allowed, in words: `allowed by token ops`, `by rule no-push`, ... */
export function approvalText(approval: Approval): string {
  switch (approval.kind) {
    case 'PERSON':
      return approval.token ? `allowed by token ${approval.token}` : 'allowed by a person';
    case 'RULE':
      return `allowed by rule ${approval.rule ?? '?'}`;
    case 'MODE':
      return `allowed by the mode ${approval.mode ?? '?'}`;
    case 'TERMINAL':
      return 'allowed in the terminal';
    case 'NO_PROMPT':
      return 'no prompt needed';
  }
}

/** The class of a diff line: file headers, hunk headers, added, removed, context. */
function lineClass(line: string): string {
  if (
    /^(diff |index |new file|deleted file|old mode|new mode|similarity |rename |--- |\+\+\+ )/.test(
      line,
    )
  )
    return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('\\')) return 'meta';
  return 'context';
}

function diffOf(change: FileChange): HTMLElement[] {
  const note = change.truncated
    ? el(
        'p',
        { class: 'diff-note truncated' },
        change.diff === null
          ? 'The diff was left out: the answer had reached its size bound.'
          : 'The diff was cut: it is longer than the hub shows.',
      )
    : null;
  if (change.diff === null) {
    return [el('p', { class: 'diff-note no-diff' }, 'no diff'), ...(note ? [note] : [])];
  }
  const lines = change.diff.endsWith('\n')
    ? change.diff.slice(0, -1).split('\n')
    : change.diff.split('\n');
  const pre = el(
    'pre',
    { class: 'diff' },
    ...lines.flatMap((line) => [el('span', { class: `line ${lineClass(line)}` }, line), '\n']),
  );
  return note ? [pre, note] : [pre];
}

/** Each call that changed the file, with who allowed it. */
function approvalsOf(change: FileChange): HTMLElement {
  const byCall = new Map(change.approvedBy.map((approval) => [approval.toolUseId, approval]));
  return el(
    'ul',
    { class: 'approvals' },
    ...change.actions.map((action) => {
      const approval = byCall.get(action.id);
      return el(
        'li',
        { class: 'approval', 'data-approval': approval?.kind ?? '' },
        el('span', { class: 'tool' }, action.toolName ?? action.kind.toLowerCase()),
        ' ',
        el('span', { class: 'call-title' }, action.title),
        ': ',
        el(
          'span',
          { class: 'allowed' },
          approval ? approvalText(approval) : 'not known how it was allowed',
        ),
      );
    }),
  );
}

/** One changed file: its kind and path; opened, its calls and its diff. */
function fileRow(change: FileChange): HTMLElement {
  const kind = change.kind.toLowerCase();
  const file = el(
    'details',
    { class: `file-change kind-${kind}`, 'data-path': change.path, 'data-kind': change.kind },
    el(
      'summary',
      {},
      el('span', { class: 'kind' }, kind),
      ' ',
      el('span', { class: 'path' }, change.path),
      change.oldPath ? el('span', { class: 'old-path' }, ` from ${change.oldPath}`) : null,
    ),
  );
  // Built when first opened: a turn can change many files with long diffs.
  file.addEventListener('toggle', () => {
    if (file.open && file.childElementCount === 1) {
      file.append(
        change.actions.length > 0
          ? approvalsOf(change)
          : el('p', { class: 'approvals none' }, 'no tool call named it'),
        ...diffOf(change),
      );
    }
  });
  return file;
}

/**
 * The turn's "changes" switch. Its files are fetched when it is first opened, and again on the
 * next opening after a failure.
 */
export function turnChanges(hub: HubClient, turnId: string): HTMLDetailsElement {
  const list = el('div', { class: 'changes-list' }, 'reading the changes...');
  const element = el(
    'details',
    { class: 'changes', 'data-turn-id': turnId },
    el('summary', {}, 'changes'),
    list,
  );
  let state: 'unread' | 'reading' | 'read' = 'unread';
  element.addEventListener('toggle', async () => {
    if (!element.open || state !== 'unread') return;
    state = 'reading';
    fill(list, 'reading the changes...');
    try {
      const { turn } = await hub.request(TurnChangesQuery, { id: turnId });
      const changes = turn?.changes ?? [];
      fill(
        list,
        changes.length === 0
          ? el('p', { class: 'no-changes' }, 'no files changed')
          : el('ul', { class: 'files' }, ...changes.map((change) => el('li', {}, fileRow(change)))),
      );
      state = 'read';
    } catch (error) {
      fill(
        list,
        el(
          'p',
          { class: 'error' },
          `The changes could not be read: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      state = 'unread';
    }
  });
  return element;
}

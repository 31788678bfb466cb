import { SessionStatus } from './session.js';
import { lifecycle, stateMeaning, type From, type Move } from './session-lifecycle.js';

const code = (text: string) => `\`${text}\``;

function fromText(from: From): string {
  if (from === 'any') return 'any';
  if (from === 'running') return 'any running';
  return from.map(code).join(', ');
}

const errorText = { clear: 'cleared', set: 'set', keep: 'kept' } as const;

/**
 * The states and moves of a session, as markdown: the states and what they mean, and each move
 * with where it may start, where it goes, what it does to the error and when it is made.
 */
export function lifecycleDocs(): string {
  const moves = Object.entries(lifecycle) as [Move, (typeof lifecycle)[Move]][];
  const lines = [
    '| status | meaning |',
    '| --- | --- |',
    ...Object.values(SessionStatus).map(
      (status) => `| ${code(status)} | ${stateMeaning[status]} |`,
    ),
    '',
    'Every change of status is one of these moves (`src/sessions/session-lifecycle.ts`); a move',
    'made from a status it does not start from changes nothing.',
    '',
    '| move | from | to | error | when |',
    '| --- | --- | --- | --- | --- |',
    ...moves.map(
      ([move, rule]) =>
        `| ${code(move)} | ${fromText(rule.from)} | ${code(rule.to)} | ${errorText[rule.error]} | ${rule.when} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

import { graphql } from '../gql/index.js';
import type { Command, Values } from './command.js';
import { ExitCode, UsageError } from './command-io.js';
import { table } from './format.js';
import { rulesOfFile } from './rule-input.js';

/** `rules dry-run`'s operation, typed by codegen (npm run codegen). */
export const PolicyDryRunQuery = graphql(`
  query CliPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime, $sessionId: ID) {
    policyDryRun(rules: $rules, since: $since, sessionId: $sessionId) {
      calls
      sessions
      allowed
      denied
      asked
      changed
      truncated
      examples {
        sessionId
        seq
        at
        toolName
        toolInput
        then
        now
        thenDecidedBy
        rule
        explanation
      }
    }
  }
`);

const units: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`: a time in ISO 8601 (`2026-01-31`, `2026-01-31T12:00:00Z`), or how long ago (`30m`,
 * `1h`, `7d`, `2w`); null when absent.
 */
export function sinceOption(value: Values[string], now: number): string | null {
  if (value === undefined) return null;
  const text = String(value);
  const ago = /^(\d+)([mhdw])$/.exec(text);
  if (ago) return new Date(now - Number(ago[1]) * units[ago[2]!]!).toISOString();
  const at = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\d/.test(text) || Number.isNaN(at))
    throw new UsageError(
      `--since must be an ISO 8601 time (2026-01-31T12:00:00Z) or an age such as 30m, 1h, 7d or 2w, got ${JSON.stringify(text)}`,
    );
  return new Date(at).toISOString();
}

/** Longest tool input shown in a row of examples; --json gives it whole. */
const inputWidth = 60;

function clip(value: unknown): string {
  const line = (JSON.stringify(value) ?? '').replace(/\s+/g, ' ');
  return line.length > inputWidth ? `${line.slice(0, inputWidth - 1)}…` : line;
}

/** `rules dry-run`: proposed rules replayed on the stored tool calls. */
export const ruleDryRunCommands: Record<string, Command> = {
  'rules dry-run': {
    args: '<file|-> [--since ISO|1h|7d] [--session ID] [--json]',
    summary:
      'Try the rules of a policy file (JSON or YAML: a list, or { rules: [...] }) on the tool calls the hub has stored, changing nothing (read scope): prints how many calls they would allow, deny and ask about, how many would go otherwise than they did, and examples (changed calls first): when, session, tool, input, then, now, who decided then, the rule that decides now. Only TOOL_CALL rules are replayed. - reads standard input.',
    positionals: 1,
    options: {
      since: { type: 'string' },
      session: { type: 'string' },
      json: { type: 'boolean' },
    },
    optionHelp: [
      '--since ISO|AGE  only the calls received since then: 2026-01-31T12:00:00Z, or 30m, 1h, 7d, 2w ago',
      "--session ID     only that session's calls (default: every session's)",
      '--json           the whole result as one JSON object',
    ],
    async run(client, values, [file], io) {
      const since = sinceOption(values.since, Date.now());
      const rules = await rulesOfFile(file!, io);
      const { policyDryRun: result } = await client.request(PolicyDryRunQuery, {
        rules,
        since,
        sessionId: typeof values.session === 'string' ? values.session : null,
      });
      if (values.json) {
        io.out(JSON.stringify(result));
        return ExitCode.Ok;
      }
      const sessions = `${result.sessions} session${result.sessions === 1 ? '' : 's'}`;
      io.out(
        `${result.calls} calls in ${sessions}: ${result.allowed} allowed, ${result.denied} denied, ${result.asked} asked; ${result.changed} changed`,
      );
      if (result.truncated)
        io.out(
          'truncated: the hub read no more calls than its bound; the counts are of those read',
        );
      const stops = rules.filter((rule) => rule.on === 'STOP').length;
      if (stops > 0)
        io.out(
          `${stops} STOP rule${stops === 1 ? ' is' : 's are'} not replayed (only tool calls are)`,
        );
      if (result.examples.length === 0) return ExitCode.Ok;
      const rows = result.examples.map((example) => [
        example.at,
        example.sessionId.slice(0, 8),
        example.toolName,
        clip(example.toolInput),
        example.then,
        example.now,
        example.thenDecidedBy ?? '-',
        example.rule ?? '-',
      ]);
      io.out('');
      io.out(
        table([['AT', 'SESSION', 'TOOL', 'INPUT', 'THEN', 'NOW', 'THEN BY', 'RULE'], ...rows]),
      );
      return ExitCode.Ok;
    },
  },
};

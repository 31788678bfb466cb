import type { PermissionRuleInput } from '../gql/graphql.js';
import type { Command } from './command.js';
import { ExitCode, UsageError, type Io } from './command-io.js';
import { ClientError, type HubClient } from './client.js';
import { describeMatch, short, table } from './format.js';
import {
  findRule,
  ruleInputFromOptions,
  ruleInputOf,
  ruleOptionNames,
  rulesOfFile,
  type ListedRule,
} from './rule-input.js';
import {
  CreatePermissionRuleMutation,
  DeletePermissionRuleMutation,
  PermissionRulesQuery,
  UpdatePermissionRuleMutation,
} from './rule-operations.js';

/** Longest match shown in a `rules ls` row; --json gives it whole. */
const matchWidth = 60;

async function listRules(client: HubClient): Promise<ListedRule[]> {
  return (await client.request(PermissionRulesQuery, {})).permissionRules;
}

/** `rules enable` and `rules disable`: the rule's fields again, with `enabled` set. */
function setEnabled(enabled: boolean): Command {
  const word = enabled ? 'enabled' : 'disabled';
  return {
    args: '<id|name>',
    summary: enabled
      ? 'Put a rule made through the API back in force; prints its id, name and "enabled".'
      : 'Keep a rule made through the API, out of force: no call is decided by it until it is enabled again; prints its id, name and "disabled".',
    positionals: 1,
    async run(client, _values, [idOrName], io) {
      const rule = findRule(await listRules(client), idOrName!);
      const { updatePermissionRule: updated } = await client.request(UpdatePermissionRuleMutation, {
        id: rule.id,
        input: ruleInputOf(rule, { enabled }),
      });
      io.out(`${updated.id} ${updated.name} ${word}`);
      return ExitCode.Ok;
    },
  };
}

/** The commands on permission rules: list, add, remove, enable and disable. */
export const ruleCommands: Record<string, Command> = {
  'rules ls': {
    args: '[--json]',
    summary:
      'List the permission rules in the order they are tried (disabled ones last): name, trigger, decision, priority, enabled, source (API or FILE), match, id.',
    positionals: 0,
    options: { json: { type: 'boolean' } },
    optionHelp: ['--json  one JSON object a line, each rule whole'],
    async run(client, values, _positionals, io) {
      const rules = await listRules(client);
      if (values.json) {
        for (const rule of rules) io.out(JSON.stringify(rule));
        return ExitCode.Ok;
      }
      if (rules.length === 0) return ExitCode.Ok;
      const rows = rules.map((rule) => [
        rule.name,
        rule.on,
        rule.decision,
        String(rule.priority),
        rule.enabled ? 'yes' : 'no',
        rule.source,
        short(describeMatch(rule.match), matchWidth),
        rule.id,
      ]);
      const head = ['NAME', 'ON', 'DECISION', 'PRIORITY', 'ENABLED', 'SOURCE', 'MATCH', 'ID'];
      io.out(table([head, ...rows]));
      return ExitCode.Ok;
    },
  },
  'rules add': {
    args: '--name N --decision ALLOW|DENY|ASK [--on TOOL_CALL|STOP] [--priority P] [--tool GLOB]... [--input PATH=PATTERN]... [--cwd-under DIR]... [--label L]... [--runtime TMUX|HEADLESS] [--origin MANAGED|EXTERNAL] [--created-by TOKEN] [--message TEXT] [--disabled] | --file FILE',
    summary:
      'Add a permission rule (admin scope); it applies at once. With --file, add each rule of a policy file (JSON or YAML: a list, or { rules: [...] }), checked first, so a bad file adds none. Prints each added rule as its id and name.',
    positionals: 0,
    options: {
      file: { type: 'string' },
      name: { type: 'string' },
      decision: { type: 'string' },
      on: { type: 'string' },
      priority: { type: 'string' },
      tool: { type: 'string', multiple: true },
      input: { type: 'string', multiple: true },
      'cwd-under': { type: 'string', multiple: true },
      label: { type: 'string', multiple: true },
      runtime: { type: 'string' },
      origin: { type: 'string' },
      'created-by': { type: 'string' },
      message: { type: 'string' },
      disabled: { type: 'boolean' },
    },
    optionHelp: [
      '--file FILE           the rules of a policy file (- reads standard input), instead of the options below',
      '--decision            ALLOW (run it), DENY (refuse it, telling the model --message) or ASK (hold it for a person)',
      '--on                  TOOL_CALL (the default) or STOP (claude ending its turn: DENY sends it back with --message)',
      '--priority P          higher is tried first (default 0); at equal priority DENY, then ASK, then ALLOW',
      "--tool GLOB           a tool name glob: Bash, 'mcp__github__*' (repeatable: any one)",
      "--input PATH=PATTERN  a glob or /regex/ on a field of the tool input: command='git push*' (repeatable: any one)",
      '--cwd-under DIR       the session works in DIR or below; a relative DIR is from here (repeatable)',
      '--label L             the session carries the label L (repeatable: any one)',
      '--runtime, --origin   how the session runs (TMUX, HEADLESS), who started it (MANAGED, EXTERNAL)',
      '--created-by TOKEN    the session was created with the token named TOKEN',
      '--message TEXT        DENY: what the model is told; STOP: what claude is sent back to do',
      '--disabled            add it out of force (rules enable puts it in)',
    ],
    async run(client, values, _positionals, io) {
      let inputs: PermissionRuleInput[];
      if (typeof values.file === 'string') {
        const also = ruleOptionNames.filter((name) => values[name] !== undefined);
        if (also.length > 0)
          throw new UsageError(`--file takes the rules from the file: leave out --${also[0]}`);
        inputs = await rulesOfFile(values.file, io);
      } else {
        inputs = [ruleInputFromOptions(values, process.cwd())];
      }
      for (const [i, input] of inputs.entries()) {
        try {
          const { createPermissionRule: rule } = await client.request(
            CreatePermissionRuleMutation,
            { input },
          );
          io.out(`${rule.id} ${rule.name}`);
        } catch (error) {
          if (!(error instanceof ClientError) || inputs.length === 1) throw error;
          const added = i === 0 ? 'none was added' : `the ${i} before it were added`;
          throw new ClientError(
            `rule ${i + 1} of ${inputs.length} (${JSON.stringify(input.name)}): ${error.message}; ${added}`,
            error.code,
          );
        }
      }
      return ExitCode.Ok;
    },
  },
  'rules rm': {
    args: '<id|name>',
    summary:
      'Remove a permission rule made through the API (admin scope); prints its id, name and "removed". A rule of the policy file is changed in the file.',
    positionals: 1,
    async run(client, _values, [idOrName], io) {
      const rule = findRule(await listRules(client), idOrName!);
      await client.request(DeletePermissionRuleMutation, { id: rule.id });
      io.out(`${rule.id} ${rule.name} removed`);
      return ExitCode.Ok;
    },
  },
  'rules enable': setEnabled(true),
  'rules disable': setEnabled(false),
};

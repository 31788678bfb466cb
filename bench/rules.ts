/**
 * The `rules` section: what permission rules cost a hook's answer. A hub of the section's own,
 * one session (made by its first event, as a claude started by hand makes one), and PreToolUse
 * events of Bash calls (bench/rule-set.ts) in three cases on that same hub:
 * - no rule enabled;
 * - 100 enabled rules of which none matches, so each call tries every one;
 * - the same 99 and, tried last, an ALLOW rule that matches every call: each call is answered
 *   allow and kept as a settled permission request, audited, with HubPermissionResolved in the
 *   session's stream.
 * The rules are made with createPermissionRule and switched with updatePermissionRule between
 * cases, alternated over rounds (none, 100, last; then last, 100, none; ...). Each case: calls
 * one at a time (p50 / p99), then as fast as 16 connections take them (throughput, and the hub's
 * CPU an event). Target: the 100 rules' p99 within the noise of no rule's, the spread of no
 * rule's p99 over the same run's rounds: the median of the 100 rules' p99s at most the highest
 * of no rule's. Last, the same rules tried in this process, without HTTP or store, for the
 * matching's own cost: with Policy as the hub runs it, compiled to dist/ (see compiledPolicy).
 */
import { performance } from 'node:perf_hooks';
import { gqlData } from '../harness/graphql-http.js';
import type { Policy } from '../src/permissions/policy.js';
import {
  checkRuleInput,
  RuleSource,
  RuleTrigger,
  type RuleInput,
} from '../src/permissions/rule.js';
import type { RuleSubject } from '../src/permissions/rule-match.js';
import { RuntimeKind, SessionOrigin } from '../src/runtime/session-runtime.js';
import type { BenchWorld } from './claude-world.js';
import { startFreshHub, type FreshHub } from './fresh-hub.js';
import { cpuMs } from './proc-stats.js';
import { ms, percentile, type Row } from './row.js';
import { commands, preToolUse, projectDir, ruleSet } from './rule-set.js';

const section = 'permission rules';
const cases = ['none', 'missing', 'last'] as const;
type Case = (typeof cases)[number];
const caseNames: Record<Case, string> = {
  none: 'no rule',
  missing: '100 rules, none matching',
  last: '100, the last matching (ALLOW)',
};

interface Options {
  readonly rounds: number;
  /** Calls one at a time, per case and round. */
  readonly calls: number;
  /** Calls from 16 connections, per case and round. */
  readonly burst: number;
  /** Calls of Policy.decide in this process, per policy and try. */
  readonly decideCalls: number;
}

interface Measured {
  readonly p50: number[];
  readonly p99: number[];
  readonly perSecond: number[];
  /** The hub's CPU over the calls one at a time, and over those from 16 connections. */
  cpuMs: { one: number; burst: number };
  calls: { one: number; burst: number };
}

export async function permissionRules(world: BenchWorld, options: Options): Promise<Row[]> {
  const hub = await startFreshHub(world, 'rules');
  const empty = (): Measured => ({
    p50: [],
    p99: [],
    perSecond: [],
    cpuMs: { one: 0, burst: 0 },
    calls: { one: 0, burst: 0 },
  });
  const measured: Record<Case, Measured> = { none: empty(), missing: empty(), last: empty() };
  try {
    const { target } = hub;
    const start = JSON.stringify({
      session_id: target.id,
      hook_event_name: 'SessionStart',
      source: 'startup',
      cwd: projectDir,
    });
    if ((await hub.hooks.post(target.secret, start)) !== 200) throw new Error('no session');
    const switchTo = await ruleSwitch(hub.url);
    let sent = 0;
    const post = async (count: number, concurrency: number) => {
      const latencies: number[] = [];
      const first = sent;
      sent += count;
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            const body = preToolUse(target.id, first + next++);
            const t = performance.now();
            const status = await hub.hooks.post(target.secret, body);
            if (status !== 200) throw new Error(`hook POST answered ${status}`);
            latencies.push(performance.now() - t);
          }
        }),
      );
      return { latencies, perSecond: count / ((performance.now() - t0) / 1000) };
    };
    // Every command in each case, answered as the case says; then the case's warm-up.
    for (const name of cases) {
      await switchTo(name);
      await checkAnswers(hub, name);
      await post(options.burst, 16);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const name of round % 2 === 0 ? cases : [...cases].reverse()) {
        await switchTo(name);
        const m = measured[name];
        const cpu0 = cpuMs(hub.pid);
        const one = await post(options.calls, 1);
        const cpu1 = cpuMs(hub.pid);
        const burst = await post(options.burst, 16);
        m.cpuMs.one += cpu1 - cpu0;
        m.cpuMs.burst += cpuMs(hub.pid) - cpu1;
        m.calls.one += options.calls;
        m.calls.burst += options.burst;
        m.p50.push(percentile(one.latencies, 50));
        m.p99.push(percentile(one.latencies, 99));
        m.perSecond.push(burst.perSecond);
      }
    }
  } finally {
    await hub.stop();
  }
  return [...rows(measured, options.rounds), await inProcess(options.decideCalls)];
}

/**
 * Creates the rule set, disabled, and returns a function that enables the rules of a case
 * (and disables the others), one updatePermissionRule each.
 */
async function ruleSwitch(url: string) {
  const { missing, lastMissing, lastMatching } = ruleSet();
  const rules: { input: RuleInput; id: string; enabled: boolean; in: readonly Case[] }[] = [];
  const create = async (input: RuleInput, inCases: readonly Case[]) => {
    const { createPermissionRule } = await gqlData<{ createPermissionRule: { id: string } }>(
      url,
      'mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }',
      { input },
    );
    rules.push({ input, id: createPermissionRule.id, enabled: false, in: inCases });
  };
  for (const input of missing) await create(input, ['missing', 'last']);
  await create(lastMissing, ['missing']);
  await create(lastMatching, ['last']);
  return async (name: Case) => {
    for (const rule of rules) {
      const enabled = rule.in.includes(name);
      if (rule.enabled === enabled) continue;
      await gqlData(
        url,
        'mutation($id: ID!, $input: PermissionRuleInput!) { updatePermissionRule(id: $id, input: $input) { enabled } }',
        { id: rule.id, input: { ...rule.input, enabled } },
      );
      rule.enabled = enabled;
    }
  };
}

/** Each command once: no rule answers `{}`; the last rule, when it matches, allows. */
async function checkAnswers(hub: FreshHub, name: Case): Promise<void> {
  for (let i = 0; i < commands.length; i++) {
    const response = await fetch(`${hub.base}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hub.target.secret}` },
      body: preToolUse(hub.target.id, -1 - i, commands[i]),
    });
    const answer = (await response.json()) as {
      hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    };
    const decided = answer.hookSpecificOutput;
    const expected =
      name === 'last'
        ? decided?.permissionDecision === 'allow' &&
          decided.permissionDecisionReason?.startsWith('rule bench last matching:')
        : decided === undefined;
    if (!expected)
      throw new Error(`${name}: ${JSON.stringify(commands[i])} answered ${JSON.stringify(answer)}`);
  }
}

function rows(measured: Record<Case, Measured>, rounds: number): Row[] {
  const range = (values: number[], format: (n: number) => string) =>
    `${format(Math.min(...values)).replace(/ .*/, '')}-${format(Math.max(...values))}`;
  const noise = Math.max(...measured.none.p99);
  const cpu = (m: Measured, phase: 'one' | 'burst') =>
    `hub CPU ${Math.round((m.cpuMs[phase] * 1000) / m.calls[phase])} µs an event`;
  const out: Row[] = [];
  for (const name of cases) {
    const m = measured[name];
    out.push({
      section,
      metric: `${caseNames[name]}: p50 / p99, one at a time`,
      value: `${ms(median(m.p50))} / ${ms(median(m.p99))} (p99 ${range(m.p99, ms)} over ${rounds} rounds; ${cpu(m, 'one')})`,
      ...(name === 'missing' && {
        target: `p99 within no rule's noise (<= ${ms(noise)})`,
        ok: median(m.p99) <= noise,
      }),
    });
  }
  const perSecond = (n: number) => Math.round(n).toLocaleString('en');
  for (const name of cases) {
    const m = measured[name];
    out.push({
      section,
      metric: `${caseNames[name]}: 16 connections`,
      value: `${perSecond(median(m.perSecond))} events/s (${range(m.perSecond, perSecond)}), ${cpu(m, 'burst')}`,
    });
  }
  return out;
}

/** The middle value, or the mean of the middle two. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length / 2;
  return Number.isInteger(half)
    ? (sorted[half - 1]! + sorted[half]!) / 2
    : sorted[Math.floor(half)]!;
}

/**
 * Policy as tsc compiled it for the hub (the bench builds dist/ before its sections run), not
 * as tsx loads the sources: tsx names every function it makes (esbuild's keepNames), one
 * defineProperty for each closure a call creates, which cost decide several times its matching.
 */
async function compiledPolicy(): Promise<typeof Policy> {
  const url = new URL('../dist/permissions/policy.js', import.meta.url);
  return ((await import(url.href)) as { Policy: typeof Policy }).Policy;
}

/** The rules tried by Policy.decide in this process: the matching alone, CPU µs a call. */
async function inProcess(calls: number): Promise<Row> {
  const Compiled = await compiledPolicy();
  const { missing, lastMissing, lastMatching } = ruleSet();
  const policy = (inputs: RuleInput[]) =>
    new Compiled(
      inputs.map((input, i) => ({
        ...checkRuleInput({ ...input, enabled: true }),
        id: String(i),
        source: RuleSource.Api,
        createdAt: i,
        createdBy: null,
        updatedAt: i,
      })),
    );
  const subjects: RuleSubject[] = commands.map((command) => ({
    on: RuleTrigger.ToolCall,
    session: {
      cwd: projectDir,
      labels: [],
      runtime: RuntimeKind.Tmux,
      origin: SessionOrigin.External,
      createdBy: null,
    },
    toolName: 'Bash',
    toolInput: { command, description: 'Run a project command' },
  }));
  const perCall = (tried: Policy) => {
    // CPU time, not the clock's: on a shared machine this process may wait for a core.
    const time = (calls: number) => {
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) tried.decide(subjects[i % subjects.length]!);
      const { user, system } = process.cpuUsage(before);
      return (user + system) / calls;
    };
    time(calls);
    return median(Array.from({ length: 5 }, () => time(calls)));
  };
  const us = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} µs`;
  return {
    section,
    metric: 'Policy.decide alone, CPU a call (median of 5)',
    value: `no rule ${us(perCall(policy([])))}, 100 none matching ${us(perCall(policy([...missing, lastMissing])))}, the last matching ${us(perCall(policy([...missing, lastMatching])))}`,
  };
}

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { compareVersions, testedClaudeVersions } from '../../src/claude/claude-version.js';
import { isKnownHookEvent } from '../../src/events/registry.js';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';

/** The version of the claude under test, read here apart from the hub's own reading. */
const version = /(\d+\.\d+\.\d+) \(Claude Code\)/.exec(
  execFileSync(claudeBin, ['--version'], { encoding: 'utf8' }),
)?.[1];
const pinned = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies['@anthropic-ai/claude-code'];
/** PreSkillShellCommand came with 2.1.332. */
const firesSkillShell = version !== undefined && compareVersions(version, '2.1.332') >= 0;

interface ClaudeHookEvent {
  name: string;
  typed: boolean;
  http: boolean;
}

describe('the claude CLI the hub runs', () => {
  const suite = claudeHubSuite();

  it("reports claude's version and hook events, and a session registers every one", async () => {
    if (!process.env.CLAUDE_HUB_TEST_CLAUDE_BIN) expect(version).toBe(pinned);
    const { claude } = await suite.hub.data(`{
      claude { bin version standing testedRange { oldest newest } hookEventSource hookEvents { name typed http } }
    }`);
    expect(claude).toMatchObject({
      bin: claudeBin,
      version,
      testedRange: testedClaudeVersions,
      hookEventSource: 'CLI',
    });
    const events = claude.hookEvents as ClaudeHookEvent[];
    const names = events.map((event) => event.name);
    expect(names.slice(0, 3)).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    for (const event of events) {
      expect(event, event.name).toEqual({
        name: event.name,
        typed: isKnownHookEvent(event.name),
        http: !['SessionStart', 'Setup'].includes(event.name),
      });
    }
    if (firesSkillShell) {
      expect(events).toContainEqual({ name: 'PreSkillShellCommand', typed: true, http: true });
    } else {
      expect(names).not.toContain('PreSkillShellCommand');
    }
    const started = suite.hub.logs
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === 'claude CLI');
    expect(started).toMatchObject({ bin: claudeBin, version, hookEvents: names.length });

    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id } }`,
      { cwd: suite.world.makeCwd() },
    );
    const { hooks } = JSON.parse(
      readFileSync(path.join(suite.hub.dataDir, 'sessions', `${session.id}.settings.json`), 'utf8'),
    );
    expect(Object.keys(hooks)).toEqual(names);
    if (firesSkillShell) {
      expect(hooks.PreSkillShellCommand[0].hooks[0]).toMatchObject({
        type: 'http',
        url: expect.stringMatching(/\/hooks$/),
      });
    }
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it.skipIf(!firesSkillShell)(
    "delivers PreSkillShellCommand typed when a slash command's shell line runs",
    async () => {
      const cwd = suite.world.makeCwd();
      mkdirSync(path.join(cwd, '.claude', 'commands'), { recursive: true });
      writeFileSync(
        path.join(cwd, '.claude', 'commands', 'hub-skill.md'),
        '---\nallowed-tools: Bash(echo:*)\ndescription: says a number\n---\nContext: !`echo skill-shell-$((6*7))`\n\nSay done.\n',
      );
      const { createSession: session } = await suite.hub.data(
        `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: DEFAULT }) { id } }`,
        { cwd },
      );
      const events = suite.hub.subscribe(
        `subscription($id: ID!) { sessionEvents(id: $id, after: 0) {
          __typename eventName payload
          ... on PreSkillShellCommandEvent { toolName toolInput toolUseId commandName commandSource invokedBy }
        } }`,
        { id: session.id },
      );
      await suite.hub.data(
        `mutation($id: ID!) { enqueueMessage(sessionId: $id, text: "/hub-skill", kind: SLASH_COMMAND) { id } }`,
        { id: session.id },
      );
      const turn = (await events.until((e) => e.sessionEvents.eventName === 'Stop', 45_000)).map(
        (e) => e.sessionEvents,
      );
      const skill = turn.find((e) => e.eventName === 'PreSkillShellCommand');
      expect(skill).toMatchObject({
        __typename: 'PreSkillShellCommandEvent',
        toolName: 'Bash',
        toolInput: { command: 'echo skill-shell-$((6*7))' },
        toolUseId: expect.any(String),
        commandName: 'hub-skill',
        commandSource: 'projectSettings',
        invokedBy: 'user',
      });
      const names = turn.map((e) => e.eventName);
      expect(names.indexOf('UserPromptExpansion')).toBeLessThan(
        names.indexOf('PreSkillShellCommand'),
      );
      // The hub answered {}: the command ran, and the model got its output in the prompt.
      expect(JSON.stringify(suite.world.stub.requests.at(-1))).toContain('Context: skill-shell-42');
      await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, {
        id: session.id,
      });
    },
  );
});

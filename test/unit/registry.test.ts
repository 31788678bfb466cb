import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isObjectType, isInterfaceType } from 'graphql';
import { commonFields, hookEventNames, hookEvents } from '../../src/events/registry.js';
import { eventTypeName, readField } from '../../src/schema/events.js';
import { camelCase, hookEventDocs } from '../../src/events/hook-event-docs.js';
import { exampleHookSettings, hookSettings } from '../../src/sessions/hook-settings.js';
import { printSortedSchema, schema } from '../../src/schema/index.js';

const factsNames = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
];

describe('hook event registry', () => {
  it('knows the 34 events of the pinned CLI', () => {
    expect([...hookEventNames].sort()).toEqual([...factsNames].sort());
  });

  it('gives every event an object type implementing HookEvent with its fields camelCased', () => {
    const hookEvent = schema.getType('HookEvent');
    expect(isInterfaceType(hookEvent)).toBe(true);
    for (const [name, spec] of Object.entries(hookEvents)) {
      const type = schema.getType(`${name}Event`);
      if (!isObjectType(type)) throw new Error(`${name}Event missing`);
      expect(type.getInterfaces().map((i) => i.name)).toEqual(['HookEvent']);
      for (const key of [...Object.keys(spec.fields), ...Object.keys(commonFields)]) {
        expect(type.getFields()[camelCase(key)], `${name}.${key}`).toBeDefined();
      }
    }
    expect(schema.getType('PreToolUseEvent')?.toString()).toBe('PreToolUseEvent');
    const pre = schema.getType('PreToolUseEvent');
    if (!isObjectType(pre)) throw new Error('no PreToolUseEvent');
    expect(String(pre.getFields().toolName?.type)).toBe('String');
    expect(String(pre.getFields().toolInput?.type)).toBe('JSON');
    expect(String(pre.getFields().seq?.type)).toBe('Int!');
  });

  it('maps unknown names to UnknownHookEvent', () => {
    expect(eventTypeName('Stop')).toBe('StopEvent');
    expect(eventTypeName('SomethingNew')).toBe('UnknownHookEvent');
    expect(eventTypeName('constructor')).toBe('UnknownHookEvent');
  });

  it('reads a field of the wrong type as null instead of failing', () => {
    const payload = {
      session_id: 's',
      hook_event_name: 'PostToolUse',
      duration_ms: '12',
      tool_name: 5,
      tool_response: { a: 1 },
    };
    expect(readField(payload, 'duration_ms', 'Int')).toBeNull();
    expect(readField(payload, 'tool_name', 'String')).toBeNull();
    expect(readField(payload, 'tool_response', 'JSON')).toEqual({ a: 1 });
    expect(readField(payload, 'missing', 'JSON')).toBeNull();
  });

  it('sends every event to the hub: HTTP where allowed, the forwarder for SessionStart and Setup', () => {
    const { hooks } = hookSettings({
      hookUrl: 'http://127.0.0.1:1/hooks',
      forwarderPath: "/it's/forward.sh",
      httpTimeoutSeconds: 7,
      permissionTimeoutSeconds: 99,
    });
    expect(Object.keys(hooks).sort()).toEqual([...factsNames].sort());
    const only = (name: string) =>
      (hooks[name] as { hooks: Record<string, unknown>[] }[])[0]?.hooks[0];
    expect(only('PreToolUse')).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:1/hooks',
      timeout: 7,
      headers: { Authorization: 'Bearer $CLAUDE_HUB_HOOK_SECRET' },
      allowedEnvVars: ['CLAUDE_HUB_HOOK_SECRET'],
    });
    expect(only('SessionStart')).toEqual({
      type: 'command',
      command: `'/it'\\''s/forward.sh' 'http://127.0.0.1:1/hooks'`,
      timeout: 5,
    });
    expect(only('Setup')).toMatchObject({ type: 'command' });
  });

  it('matches the committed schema.graphql, hooks/settings.json and docs (run npm run schema)', () => {
    expect(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8')).toBe(
      printSortedSchema(),
    );
    expect(readFileSync(new URL('../../hooks/settings.json', import.meta.url), 'utf8')).toBe(
      exampleHookSettings(),
    );
  });
});

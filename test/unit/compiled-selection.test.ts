import { describe, expect, it } from 'vitest';
import { execute, parse, type ExecutionArgs } from 'graphql';
import type { HookPayload, StoredEvent } from '../../src/events/hook-event.js';
import { commonFields, hookEvents, type FieldType } from '../../src/events/registry.js';
import { camelCase } from '../../src/events/hook-event-docs.js';
import { runSelection } from '../../src/subscriptions/compiled-selection.js';
import { schema } from '../../src/schema/index.js';

/** A value of the type, and one of the wrong type (the typed field then reads null). */
const samples: Record<FieldType, [unknown, unknown]> = {
  String: ['text "quoted" \u00e9', 7],
  Int: [42, 4.5],
  Float: [0.25, 'x'],
  Boolean: [true, 'yes'],
  JSON: [{ nested: [1, null, 'two'] }, undefined],
};

function event(seq: number, eventName: string, fields: Record<string, FieldType>, wrong: boolean) {
  const values: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(fields)) values[key] = samples[type][wrong ? 1 : 0];
  const payload = { ...values, session_id: 's', hook_event_name: eventName } as HookPayload;
  const stored: StoredEvent = {
    sessionId: 'hub-session',
    seq,
    eventName,
    receivedAt: 1_700_000_000_000 + seq,
    raw: JSON.stringify(payload),
    payload,
  };
  return stored;
}

describe('compiled subscription selections', () => {
  it('give what graphql-js gives, for every known event, wrong-typed fields and unknown events', () => {
    const fragments = Object.entries(hookEvents).map(
      ([name, spec]) =>
        `... on ${name}Event { ${Object.keys({ ...spec.fields, ...commonFields })
          .map(camelCase)
          .join(' ')} }`,
    );
    const document = parse(
      `subscription Events($id: ID!) { sessionEvents(id: $id) { __typename seq eventName sessionId receivedAt payload ${fragments.join(' ')} } }`,
    );
    const args: ExecutionArgs = {
      schema,
      document,
      operationName: 'Events',
      variableValues: { id: 'hub-session' },
      contextValue: {},
    };
    const events = [
      ...Object.entries(hookEvents).flatMap(([name, spec], i) => [
        event(2 * i + 1, name, { ...commonFields, ...spec.fields }, false),
        event(2 * i + 2, name, { ...commonFields, ...spec.fields }, true),
      ]),
      event(1000, 'SomethingNew', { detail: 'String' }, false),
    ];
    for (const stored of events) {
      const compiled = runSelection(args, stored);
      const interpreted = execute({ ...args, rootValue: stored });
      expect(interpreted).toMatchObject({ data: { sessionEvents: { seq: stored.seq } } });
      expect(JSON.stringify(compiled), stored.eventName).toBe(JSON.stringify(interpreted));
    }
  });
});

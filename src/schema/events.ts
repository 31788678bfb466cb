import {
  commonFields,
  hookEvents,
  hubEvents,
  isHubEvent,
  isKnownHookEvent,
  type FieldType,
} from '../events/registry.js';
import type { HookPayload, StoredEvent } from '../events/hook-event.js';
import { stringField } from '../events/hook-event.js';
import { ErrorCode, HubError } from '../errors.js';
import { camelCase } from '../events/hook-event-docs.js';
import { builder } from './builder.js';

/** The GraphQL type name of an event name: a registry entry's own type, else UnknownHookEvent. */
export function eventTypeName(eventName: string): string {
  return isKnownHookEvent(eventName) || isHubEvent(eventName)
    ? `${eventName}Event`
    : 'UnknownHookEvent';
}

/** Reads a payload key as the registry's type says; a value of another type reads as null. */
export function readField(payload: HookPayload, key: string, type: FieldType): unknown {
  const value = payload[key];
  switch (type) {
    case 'String':
      return typeof value === 'string' ? value : null;
    case 'Int':
      return Number.isSafeInteger(value) ? value : null;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'Boolean':
      return typeof value === 'boolean' ? value : null;
    case 'JSON':
      return value === undefined ? null : value;
  }
}

export const HookEventRef = builder.interfaceRef<StoredEvent>('HookEvent').implement({
  description: 'One hook event of a session, in the order the hub received it.',
  resolveType: (event) => eventTypeName(event.eventName),
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: '1, 2, 3, ... per session, assigned on receipt.' }),
    sessionId: t.exposeID('sessionId', { description: 'The hub session the event belongs to.' }),
    eventName: t.exposeString('eventName', { description: 'hook_event_name as posted.' }),
    receivedAt: t.field({ type: 'DateTime', resolve: (event) => event.receivedAt }),
    cwd: t.string({ nullable: true, resolve: (event) => stringField(event.payload, 'cwd') }),
    transcriptPath: t.string({
      nullable: true,
      resolve: (event) => stringField(event.payload, 'transcript_path'),
    }),
    permissionMode: t.string({
      nullable: true,
      resolve: (event) => stringField(event.payload, 'permission_mode'),
    }),
    payload: t.field({
      type: 'JSON',
      description: 'The JSON exactly as Claude Code posted it.',
      resolve: (event) => event.payload,
    }),
  }),
});

const interfaceFieldNames = new Set([
  'seq',
  'sessionId',
  'eventName',
  'receivedAt',
  'cwd',
  'transcriptPath',
  'permissionMode',
  'payload',
]);

/** One object type per registry entry, with the event's own fields typed and camelCased. */
for (const [eventName, spec] of [...Object.entries(hookEvents), ...Object.entries(hubEvents)]) {
  const fields: Record<string, FieldType> = { ...spec.fields, ...commonFields };
  builder.objectRef<StoredEvent>(`${eventName}Event`).implement({
    description: `${spec.description}${spec.http || isHubEvent(eventName) ? '' : ' Delivered by the command-hook forwarder.'}`,
    interfaces: [HookEventRef],
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields)
          .filter(([key]) => !interfaceFieldNames.has(camelCase(key)))
          .map(([key, type]) => [
            camelCase(key),
            t.field({
              type: type as 'String',
              nullable: true,
              description: `\`${key}\` from the payload.`,
              resolve: (event) => readField(event.payload, key, type) as string | null,
            }),
          ]),
      ),
  });
}

builder.objectRef<StoredEvent>('UnknownHookEvent').implement({
  description:
    'An event whose name the registry does not know (a newer CLI); stored and delivered like the rest.',
  interfaces: [HookEventRef],
  fields: () => ({}),
});

builder.subscriptionField('sessionEvents', (t) =>
  t.field({
    type: HookEventRef,
    authScopes: { read: true },
    description:
      "Every hook event of the session in order of receipt. With `after`, the stored events with a greater seq come first, then live ones, with no gap and no duplicate. Completes once a stopped session's SessionEnd has been delivered.",
    args: {
      id: t.arg.id({ required: true }),
      after: t.arg.int({ description: 'Replay the stored events with seq > after first.' }),
    },
    subscribe: (_root, args, ctx) => {
      const record = ctx.hub.require(String(args.id));
      if (args.after != null && args.after < 0) {
        throw new HubError(ErrorCode.BadInput, `after must be >= 0, got ${args.after}`);
      }
      return ctx.hub.sessionEvents(record.id, args.after ?? null);
    },
    resolve: (event) => event,
  }),
);

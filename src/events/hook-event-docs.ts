import { commonFields, hookEvents } from './registry.js';

/** `tool_use_id` -> `toolUseId`: payload keys as GraphQL field names. */
export function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}

/** docs/hook-events.md: the registry as a table, so the docs cannot drift from the types. */
export function hookEventDocs(): string {
  const rows = Object.entries(hookEvents).map(([name, spec]) => {
    const fields = Object.entries(spec.fields)
      .map(([key, type]) => `\`${camelCase(key)}: ${type}\``)
      .join(', ');
    return `| \`${name}Event\` | ${spec.http ? 'HTTP hook' : 'command hook (forwarder)'} | ${fields || '(common fields only)'} | ${spec.description.replaceAll('|', '\\|')} |`;
  });
  const common = Object.entries(commonFields)
    .map(([key, type]) => `\`${camelCase(key)}: ${type}\``)
    .join(', ');
  return [
    '# Hook events',
    '',
    'Generated from `src/events/registry.ts` by `npm run schema`; do not edit by hand.',
    '',
    'Every event type implements `HookEvent` (`seq`, `sessionId`, `eventName`, `receivedAt`, `cwd`,',
    '`transcriptPath`, `permissionMode`, `payload`) and also has the fields any event may carry:',
    `${common}. A session registers every event its claude supports, learned from the CLI itself`,
    '(`Query.claude { hookEvents { name typed } }`); an event name the registry does not know',
    'arrives as `UnknownHookEvent`, with its payload as posted.',
    '',
    '| GraphQL type | delivered by | own fields | fired |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/**
 * Writes the files generated from code: schema.graphql (from the Pothos schema),
 * hooks/settings.json and docs/hook-events.md (from the hook event registry), the states and
 * moves in docs/sessions.md (from the session lifecycle). A test fails when they drift.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { hookEventDocs } from '../src/events/hook-event-docs.js';
import { exampleHookSettings } from '../src/sessions/hook-settings.js';
import { printSortedSchema } from '../src/schema/index.js';
import { lifecycleDocs, withLifecycle } from '../src/sessions/lifecycle-docs.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSortedSchema());
writeFileSync(new URL('../hooks/settings.json', import.meta.url), exampleHookSettings());
writeFileSync(new URL('../docs/hook-events.md', import.meta.url), hookEventDocs());
const sessionsDoc = new URL('../docs/sessions.md', import.meta.url);
writeFileSync(
  sessionsDoc,
  withLifecycle(
    readFileSync(sessionsDoc, 'utf8'),
    await format(lifecycleDocs(), { parser: 'markdown', proseWrap: 'preserve' }),
  ),
);

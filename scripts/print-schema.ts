/**
 * Writes the files generated from code: schema.graphql (from the Pothos schema),
 * hooks/settings.json and docs/hook-events.md (from the hook event registry), the states and
 * moves in docs/sessions.md (from the session lifecycle) and the layers in docs/architecture.md. A test fails when they drift.
 */
import { writeFileSync } from 'node:fs';
import { hookEventDocs } from '../src/events/hook-event-docs.js';
import { exampleHookSettings } from '../src/sessions/hook-settings.js';
import { printSortedSchema } from '../src/schema/index.js';
import { writeDocSections } from './doc-sections.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSortedSchema());
writeFileSync(new URL('../hooks/settings.json', import.meta.url), exampleHookSettings());
writeFileSync(new URL('../docs/hook-events.md', import.meta.url), hookEventDocs());
await writeDocSections(new URL('../', import.meta.url));

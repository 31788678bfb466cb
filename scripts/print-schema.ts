/**
 * Writes the files generated from code: schema.graphql (from the Pothos schema) and
 * hooks/settings.json (from the hook event registry). A test fails when they drift.
 */
import { writeFileSync } from 'node:fs';
import { exampleHookSettings } from '../src/hooks/settings.js';
import { printSortedSchema } from '../src/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSortedSchema());
writeFileSync(new URL('../hooks/settings.json', import.meta.url), exampleHookSettings());

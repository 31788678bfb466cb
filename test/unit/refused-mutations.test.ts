import { describe, expect, it } from 'vitest';
import { mutationInText } from '../../src/audit/refused-mutations.js';

describe('the mutation in a document that does not parse', () => {
  it.each([
    ['mutation { stopSession(id: "a") { id ', 'stopSession'],
    ['mutation M($x: In = { a: 1 }) { s: sendKeys(sessionId: "a"', 'sendKeys'],
    ['query Q { a } mutation { ...F', 'mutation'],
    ['mutation', 'mutation'],
    ['{ stopSession(id: "a") ', null],
    ['query { a } fragment F on Mutation { stopSession(id: "', null],
    ['mutation { \u0001', 'mutation'],
  ])('%j names %j', (source, action) => {
    expect(mutationInText(source)).toBe(action);
  });
});

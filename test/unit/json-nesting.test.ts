import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNesting, nestingRefusal } from '../../src/http/json-nesting.js';

/** The nesting of a parsed value, counted the plain way: the scanner's reference. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

/** Strings made of the characters that could fool a scanner: quotes, backslashes, brackets. */
const trickyString = fc.string({
  unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ' ', '\n', '\u2028', '😀'),
  maxLength: 12,
});

const trickyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    trickyString,
    fc.integer(),
    fc.constantFrom(null, true, false, 1.5e-7),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonNesting', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(jsonNesting('1')).toBe(0);
    expect(jsonNesting('"x"')).toBe(0);
    expect(jsonNesting('[]')).toBe(1);
    expect(jsonNesting('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonNesting('[[],[[]],[]]')).toBe(3);
  });

  it('skips brackets and escaped quotes inside strings', () => {
    expect(jsonNesting('["[[[[", "]]]]{{"]')).toBe(1);
    expect(jsonNesting(String.raw`{"a\"[[":"\"]]\\","b":[["\\\"[["]]}`)).toBe(3);
    // An even run of backslashes before a quote ends the string; an odd one does not.
    expect(jsonNesting(String.raw`["\\\\"]`)).toBe(1);
    expect(jsonNesting(String.raw`["\\\"[[[[[", 1]`)).toBe(1);
    expect(jsonNesting(String.raw`["\\", [[]]]`)).toBe(3);
  });

  it('stops at the first level past the limit', () => {
    const hostile = '['.repeat(1_000_000);
    expect(jsonNesting(hostile, 256)).toBe(257);
    expect(jsonNesting(`${'['.repeat(256)}${']'.repeat(256)}`, 256)).toBe(256);
  });

  it('agrees with JSON.parse on any value, compact or indented', () => {
    fc.assert(
      fc.property(trickyJson, (value) => {
        const depth = depthOf(value);
        expect(jsonNesting(JSON.stringify(value))).toBe(depth);
        expect(jsonNesting(JSON.stringify(value, null, 2))).toBe(depth);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonNesting(JSON.stringify(value))).toBe(depthOf(value));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.parse on values nested past the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), trickyJson, (extra, inner) => {
        const text = `${'[{"k":'.repeat(extra)}${JSON.stringify(inner)}${'}]'.repeat(extra)}`;
        const depth = depthOf(JSON.parse(text));
        expect(jsonNesting(text, 256)).toBe(Math.min(depth, 257));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with JSON.parse on any text of JSON punctuation that parses', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', '1', ':', '"k":'), {
          maxLength: 40,
        }),
        (parts) => {
          const text = parts.join('');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return;
          }
          expect(jsonNesting(text)).toBe(depthOf(parsed));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a hostile body in linear time, and a long string in about one indexOf', () => {
    const size = 32 * 1024 * 1024;
    const hostile = '['.repeat(size);
    const ordinary = `{"tool_response":"${'x'.repeat(size - 20)}"}`;
    const escapes = `["${'\\"'.repeat(size / 4)}"]`;
    const time = (text: string) => {
      const t0 = performance.now();
      const depth = jsonNesting(text, 256);
      return { depth, ms: performance.now() - t0 };
    };
    expect(time(hostile).depth).toBe(257);
    expect(time(ordinary).depth).toBe(1);
    const escaped = time(escapes);
    expect(escaped.depth).toBe(1);
    // Generous against a loaded machine; quadratic scanning would take minutes.
    expect(escaped.ms).toBeLessThan(2000);
  });
});

describe('nestingRefusal', () => {
  it('refuses past the limit with JSON_TOO_DEEP, and passes the limit itself', () => {
    expect(nestingRefusal(`${'['.repeat(256)}${']'.repeat(256)}`, 256)).toBeNull();
    const refusal = nestingRefusal(`${'['.repeat(257)}${']'.repeat(257)}`, 256);
    expect(refusal?.message).toBe('the body nests arrays or objects deeper than 256 levels');
    expect(refusal?.code).toBe('JSON_TOO_DEEP');
    expect(refusal?.httpStatus).toBe(400);
  });
});

import { maxNesting } from '../events/hook-event.js';
import { ErrorCode, HubError } from '../errors.js';

/**
 * What a GraphQL or MCP body may nest. The JSON values the hub takes nest at most `maxNesting`
 * levels, inside a few more (the body, `variables` or `params`, an input object); an input some
 * levels too deep still reaches its field, which refuses it with its own message (BAD_USER_INPUT
 * naming the bound). Only what no field could take is refused here, before it is parsed.
 */
export const maxEnvelopeNesting = 2 * maxNesting;

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;

/**
 * How deep a JSON text nests arrays and objects (`[]` is 1, `{"a":[1]}` is 2), in one pass over
 * its characters, stopping at the first level past `limit` (the answer is then `limit + 1`).
 * JSON.parse builds every level of a `[[[[…` body before the hub could count them: 32 MiB of
 * them took seconds and gigabytes. This pass allocates nothing, and skips each string with
 * indexOf, so a body that is one long string costs little more than the copy already made of it.
 *
 * Exact for valid JSON. Text that is not JSON gets some number, which does not matter: the depth
 * JSON.parse reaches before its first error is the depth of a valid prefix, counted exactly here.
 */
export function jsonNesting(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      i = stringEnd(text, i + 1);
    } else if (c === openBracket || c === openBrace) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === closeBracket || c === closeBrace) {
      // More closed than opened: not JSON, and JSON.parse stops here.
      if (--depth < 0) return deepest;
    }
  }
  return deepest;
}

/**
 * The index of the quote that ends the string whose first character is at `from` (the length,
 * when none does): the first quote after an even run of backslashes. Each run of backslashes
 * is counted once, for the quote right after it, so the whole text is read at most twice.
 */
function stringEnd(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let run = 0;
    while (at - run - 1 >= from && text.charCodeAt(at - run - 1) === backslash) run += 1;
    if (run % 2 === 0) return at;
  }
  return text.length;
}

/** JSON_TOO_DEEP for a body that nests past `limit`, before anything parses it; else null. */
export function nestingRefusal(
  text: string,
  limit: number,
  extensions: Record<string, unknown> = {},
): HubError | null {
  if (jsonNesting(text, limit) <= limit) return null;
  return new HubError(
    ErrorCode.JsonTooDeep,
    `the body nests arrays or objects deeper than ${limit} levels`,
    extensions,
  );
}

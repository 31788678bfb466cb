import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ModelPrice, PriceTable } from './prices.js';

const numberKeys = ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const;

/**
 * A price table from a --prices file's text (YAML or JSON): `{ date: YYYY-MM-DD, models: [{
 * match, input, output, cacheWrite5m?, cacheWrite1h?, cacheRead? }] }`, US dollars per million
 * tokens; the cache's prices default to 1.25x, 2x and 0.1x input, as Anthropic's are. Throws an
 * Error naming the file and the field to blame. Pure.
 */
export function parsePriceFile(text: string, file: string): PriceTable {
  const fail = (detail: string): never => {
    throw new Error(`${file}: ${detail}`);
  };
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    return fail((error as Error).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('must be an object { date, models: [...] }');
  const { date, models } = value as Record<string, unknown>;
  const day = date instanceof Date ? date.toISOString().slice(0, 10) : date;
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day))
    fail('date must be the day the prices were taken, YYYY-MM-DD');
  if (!Array.isArray(models) || models.length === 0) fail('models must be a list of prices');
  const prices = (models as unknown[]).map((model, i): ModelPrice => {
    const where = `models[${i}]`;
    if (typeof model !== 'object' || model === null) return fail(`${where} must be an object`);
    const entry = model as Record<string, unknown>;
    for (const key of Object.keys(entry)) {
      if (key !== 'match' && !(numberKeys as readonly string[]).includes(key))
        fail(`${where}.${key} is not a field of a price (match, ${numberKeys.join(', ')})`);
    }
    if (typeof entry.match !== 'string' || entry.match === '' || entry.match.length > 200)
      fail(`${where}.match must be a model name or glob of 1 to 200 characters`);
    const number = (key: (typeof numberKeys)[number], fallback?: number): number => {
      const given = entry[key] ?? fallback;
      if (typeof given !== 'number' || !Number.isFinite(given) || given < 0)
        return fail(`${where}.${key} must be a number of US dollars per million tokens, 0 or more`);
      return given;
    };
    const input = number('input');
    return {
      match: entry.match as string,
      input,
      output: number('output'),
      cacheWrite5m: number('cacheWrite5m', input * 1.25),
      cacheWrite1h: number('cacheWrite1h', input * 2),
      cacheRead: number('cacheRead', input / 10),
    };
  });
  return { date: day as string, models: prices };
}

/** The price table of a --prices file; throws an Error naming the file when it does not load. */
export function readPriceFile(file: string): PriceTable {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parsePriceFile(text, file);
}

import picomatch from 'picomatch';
import type { Usage } from '../runs/usage.js';

/** What a model's tokens cost, in US dollars per million tokens. */
export interface ModelPrice {
  /** A glob over model names (`claude-sonnet-4-5*`); the first that matches prices a model. */
  readonly match: string;
  readonly input: number;
  readonly output: number;
  /** Writing the prompt cache for 5 minutes. */
  readonly cacheWrite5m: number;
  /** Writing the prompt cache for an hour. */
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
}

/** A price table: the day its prices were taken, and the models it prices. */
export interface PriceTable {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly models: readonly ModelPrice[];
}

/** A model's tokens of one turn: usage as the API reports it, cache writes split by lifetime. */
export interface ModelUsage extends Usage {
  readonly model: string;
  /** Of cache_creation_input_tokens, those written for an hour (the rest for 5 minutes). */
  readonly cache_creation_1h_input_tokens: number;
}

/** A model's prices: input, output, cache writes for 5 minutes and an hour, cache reads. */
const price = (
  match: string,
  [input, output, cacheWrite5m, cacheWrite1h, cacheRead]: readonly number[],
): ModelPrice => ({
  match,
  input: input!,
  output: output!,
  cacheWrite5m: cacheWrite5m!,
  cacheWrite1h: cacheWrite1h!,
  cacheRead: cacheRead!,
});

/**
 * The prices the hub ships: those of the pinned claude CLI's own model catalog (2.1.332), per
 * million tokens, prompts of any length (Haiku 5.5 costs more past 100K prompt tokens: this
 * table does not). The more specific name comes first. `--prices FILE` puts a table before it.
 */
export const shippedPrices: PriceTable = {
  date: '2026-11-26',
  models: [
    price('claude-opus-5-5*', [4, 20, 5, 8, 0.2]),
    price('claude-opus-5*', [5, 25, 6.25, 10, 0.5]),
    price('claude-opus-4-0*', [15, 75, 18.75, 30, 1.5]),
    price('claude-opus-4-1*', [15, 75, 18.75, 30, 1.5]),
    price('claude-opus-4-[5-9]*', [5, 25, 6.25, 10, 0.5]),
    price('claude-opus-4', [15, 75, 18.75, 30, 1.5]),
    price('claude-opus-4-2025*', [15, 75, 18.75, 30, 1.5]),
    price('claude-sonnet-5-5*', [2, 10, 2.5, 4, 0.1]),
    price('claude-sonnet-5*', [2, 10, 2.5, 4, 0.2]),
    price('claude-sonnet-4*', [3, 15, 3.75, 6, 0.3]),
    price('claude-3-7-sonnet*', [3, 15, 3.75, 6, 0.3]),
    price('claude-3-5-sonnet*', [3, 15, 3.75, 6, 0.3]),
    price('claude-{fable,mythos}-5-2*', [8, 40, 10, 16, 0.2]),
    price('claude-{fable,mythos}-5-1*', [10, 50, 12.5, 20, 0.25]),
    price('claude-{fable,mythos}-5*', [10, 50, 12.5, 20, 1]),
    price('claude-haiku-5-5*', [0.1, 0.5, 0.125, 0.2, 0.01]),
    price('claude-haiku-4-5*', [1, 5, 1.25, 2, 0.1]),
    price('claude-3-5-haiku*', [0.8, 4, 1, 1.6, 0.08]),
  ],
};

/** Prices by model name, from tables tried in order (a --prices file's, then the shipped). */
export class Prices {
  readonly #entries: { readonly test: (model: string) => boolean; readonly price: ModelPrice }[];
  readonly #found = new Map<string, ModelPrice | null>();
  readonly tables: readonly PriceTable[];

  constructor(tables: readonly PriceTable[]) {
    this.tables = tables;
    this.#entries = tables.flatMap((table) =>
      table.models.map((model) => ({
        test: picomatch(model.match, { nocase: true }),
        price: model,
      })),
    );
  }

  /** The price of a model, or null when no table has it. */
  of(model: string): ModelPrice | null {
    let found = this.#found.get(model);
    if (found === undefined) {
      found = this.#entries.find((entry) => entry.test(model))?.price ?? null;
      if (this.#found.size < 1000) this.#found.set(model, found);
    }
    return found;
  }

  /**
   * What tokens cost in US dollars; null when a model with tokens has no price (the whole is
   * then unknown, not a part of it).
   */
  cost(usages: readonly ModelUsage[]): number | null {
    let total = 0;
    for (const usage of usages) {
      const price = this.of(usage.model);
      if (price === null) return null;
      const hour = Math.min(
        usage.cache_creation_1h_input_tokens,
        usage.cache_creation_input_tokens,
      );
      total +=
        (usage.input_tokens * price.input +
          usage.output_tokens * price.output +
          (usage.cache_creation_input_tokens - hour) * price.cacheWrite5m +
          hour * price.cacheWrite1h +
          usage.cache_read_input_tokens * price.cacheRead) /
        1_000_000;
    }
    return total;
  }
}

import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { AccountLimit, UsageLimits } from '../sessions/usage-limits.js';
import type { RedisKeys } from './redis-keys.js';

/** A limit as it goes over the channel and sits in the hash: which account, who learned it. */
interface SharedLimit {
  readonly node: string;
  readonly account: string;
  readonly limit: AccountLimit;
}

/**
 * Writes an account's limit unless the hash holds a later one, and announces it in the same
 * step. KEYS: the limits hash, the channel. ARGV: account, until, the entry's JSON. (`until` is
 * a word of Lua's: the field is read by its name in brackets.)
 */
const putIfLater = `
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if stored and tonumber(cjson.decode(stored).limit['until']) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], ARGV[3])
return 1
`;

/**
 * Usage limits are an account's, and an account's sessions may run on every node: a limit one
 * node learns is written to a Redis hash (by account, the later reset kept) and announced, and
 * every other node holds its own sessions of that account until the reset (UsageLimits.shared).
 * A node reads the hash when it joins and whenever Redis comes back; entries whose reset passed
 * are dropped then. A limit that cannot be written (Redis is away) holds this node only.
 */
export class LimitShare {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #keys: RedisKeys;
  readonly #self: string;
  readonly #log: Logger;
  readonly #limits: Pick<UsageLimits, 'shared'>;
  readonly #now: () => number;
  readonly #stop: (() => void)[] = [];

  constructor(
    deps: { redis: Redis; subscriber: Redis; keys: RedisKeys; self: string; log: Logger },
    limits: Pick<UsageLimits, 'shared'>,
    now: () => number = Date.now,
  ) {
    this.#redis = deps.redis;
    this.#subscriber = deps.subscriber;
    this.#keys = deps.keys;
    this.#self = deps.self;
    this.#log = deps.log;
    this.#limits = limits;
    this.#now = now;
  }

  /** Follows the other nodes' limits, then takes those in force. */
  async start(): Promise<void> {
    const onMessage = (channel: string, text: string) => {
      if (channel === this.#keys.limitChanges) this.#received(text);
    };
    this.#subscriber.on('message', onMessage);
    this.#stop.push(() => this.#subscriber.off('message', onMessage));
    await this.#subscriber.subscribe(this.#keys.limitChanges);
    await this.#read();
    const reread = () =>
      void this.#read().catch((error: unknown) =>
        this.#log.warn({ err: error }, 'usage limits not read again from Redis yet'),
      );
    this.#redis.on('ready', reread);
    this.#stop.push(() => this.#redis.off('ready', reread));
  }

  close(): void {
    for (const stop of this.#stop.splice(0)) stop();
  }

  /** A limit learned here: written and announced, for the other nodes. */
  share(account: string, limit: AccountLimit): void {
    const entry = JSON.stringify({ node: this.#self, account, limit } satisfies SharedLimit);
    const { limits, limitChanges } = this.#keys;
    this.#redis
      .eval(putIfLater, 2, limits, limitChanges, account, limit.until, entry)
      .catch((error: unknown) =>
        this.#log.warn({ err: error, account }, 'a usage limit was not shared: Redis is away'),
      );
  }

  async #read(): Promise<void> {
    const stored = await this.#redis.hgetall(this.#keys.limits);
    const over: string[] = [];
    for (const [account, text] of Object.entries(stored)) {
      const shared = parse(text);
      if (!shared || shared.limit.until <= this.#now()) over.push(account);
      else if (shared.node !== this.#self) this.#limits.shared(account, shared.limit);
    }
    if (over.length > 0) await this.#redis.hdel(this.#keys.limits, ...over);
  }

  #received(text: string): void {
    const shared = parse(text);
    if (shared && shared.node !== this.#self) this.#limits.shared(shared.account, shared.limit);
  }
}

function parse(text: string): SharedLimit | null {
  try {
    const shared = JSON.parse(text) as SharedLimit;
    return typeof shared?.account === 'string' && typeof shared.limit?.until === 'number'
      ? shared
      : null;
  } catch {
    return null;
  }
}

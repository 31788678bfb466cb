import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { PermissionRule } from '../permissions/rule.js';
import type { RuleBook, RuleChange } from '../permissions/rule-book.js';
import type { RedisKeys } from './redis-keys.js';

/** A change as it goes over the channel: who made it, so its maker does not apply it again. */
interface SharedChange {
  readonly node: string;
  readonly change: RuleChange;
}

/**
 * Writes a rule unless the hash holds a later version of it (by updatedAt), and announces it in
 * the same step, so the hash and the channel agree. Returns the later version when there is one.
 * KEYS: the rules hash, the channel. ARGV: id, updatedAt, the rule's JSON, the announcement's.
 */
const putIfLater = `
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if stored and tonumber(cjson.decode(stored).updatedAt) > tonumber(ARGV[2]) then return stored end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], ARGV[4])
return false
`;

type Book = Pick<RuleBook, 'localChanges' | 'get' | 'applyShared' | 'apiRules' | 'replaceApiRules'>;

/** `change` applied to `rules` (by id), a put only when it is not older than what is there. */
function merged(rules: Map<string, PermissionRule>, change: RuleChange): void {
  if (change.kind === 'delete') rules.delete(change.id);
  else if ((rules.get(change.rule.id)?.updatedAt ?? -Infinity) <= change.rule.updatedAt)
    rules.set(change.rule.id, change.rule);
}

/**
 * The permission rules made through the API are the cluster's, not a node's: they live in one
 * Redis hash that every node reads when it joins and whenever Redis comes back. The first node
 * of a cluster that never had rules writes its own there; a node that joins later takes the
 * cluster's in place of its own (and keeps them in its store, for a start without Redis). Each
 * change made here is written to the hash and announced; the other nodes apply it. Per rule, the
 * version with the later updatedAt wins. A change that cannot be written (Redis is away) stays
 * pending, applied here, and is written when Redis is back.
 */
export class RuleShare {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #keys: RedisKeys;
  readonly #self: string;
  readonly #log: Logger;
  readonly #book: Book;
  /** Changes made here that Redis has not taken yet, by rule id: the latest of each. */
  readonly #pending = new Map<string, RuleChange>();
  readonly #sending = new Set<RuleChange>();
  readonly #writes = new Set<Promise<void>>();
  /** While the hash is read: the other nodes' changes that arrive meanwhile, applied after it. */
  #held: RuleChange[] | null = null;
  #syncing = false;
  #syncAgain = false;
  readonly #stop: (() => void)[] = [];

  constructor(
    deps: { redis: Redis; subscriber: Redis; keys: RedisKeys; self: string; log: Logger },
    book: Book,
  ) {
    this.#redis = deps.redis;
    this.#subscriber = deps.subscriber;
    this.#keys = deps.keys;
    this.#self = deps.self;
    this.#log = deps.log;
    this.#book = book;
  }

  /** Follows the other nodes' changes, then takes the cluster's rules (or gives it this node's). */
  async start(): Promise<void> {
    const onMessage = (channel: string, text: string) => {
      if (channel === this.#keys.ruleChanges) this.#received(text);
    };
    this.#subscriber.on('message', onMessage);
    this.#stop.push(() => this.#subscriber.off('message', onMessage));
    await this.#subscriber.subscribe(this.#keys.ruleChanges);
    this.#stop.push(this.#book.localChanges.listen((change) => this.#changedHere(change)));
    try {
      await this.#sync();
    } catch (error) {
      for (const stop of this.#stop.splice(0)) stop();
      throw error;
    }
    // Either connection may come back last: read again after each, once both answer.
    const resync = () => this.#resync();
    for (const connection of [this.#redis, this.#subscriber]) {
      connection.on('ready', resync);
      this.#stop.push(() => connection.off('ready', resync));
    }
  }

  /** Stops sharing; resolves once every change so far is written (or failed to be). */
  async close(): Promise<void> {
    for (const stop of this.#stop.splice(0)) stop();
    this.#flush();
    await Promise.all(this.#writes);
  }

  #changedHere(change: RuleChange): void {
    this.#pending.set(idOf(change), change);
    this.#flush();
  }

  /** Sends the pending changes not on their way yet; one that fails stays pending. */
  #flush(): void {
    if (this.#syncing || this.#redis.status !== 'ready') return;
    for (const change of this.#pending.values()) {
      if (this.#sending.has(change)) continue;
      this.#sending.add(change);
      const write = this.#send(change)
        .then((later) => {
          this.#taken(change);
          if (later) this.#applied({ kind: 'put', rule: later });
        })
        .catch((error: unknown) =>
          this.#log.warn({ err: error }, 'rule change not shared yet: written when Redis is back'),
        )
        .finally(() => {
          this.#sending.delete(change);
          this.#writes.delete(write);
        });
      this.#writes.add(write);
    }
  }

  /** Writes one change and announces it; resolves with the later version the hash kept instead. */
  async #send(change: RuleChange): Promise<PermissionRule | null> {
    const announcement = JSON.stringify({ node: this.#self, change } satisfies SharedChange);
    const { rules, ruleChanges } = this.#keys;
    if (change.kind === 'delete') {
      const results = (await this.#redis
        .multi()
        .hdel(rules, change.id)
        .publish(ruleChanges, announcement)
        .exec()) ?? [[new Error('transaction discarded'), null]];
      const failed = results.find(([error]) => error);
      if (failed) throw failed[0];
      return null;
    }
    const { rule } = change;
    const later = (await this.#redis.eval(
      putIfLater,
      2,
      rules,
      ruleChanges,
      rule.id,
      rule.updatedAt,
      JSON.stringify(rule),
      announcement,
    )) as string | null;
    return later === null ? null : (JSON.parse(later) as PermissionRule);
  }

  /** The change is in Redis: no longer pending, unless a later one of the rule came meanwhile. */
  #taken(change: RuleChange): void {
    const id = idOf(change);
    if (this.#pending.get(id) === change) this.#pending.delete(id);
  }

  #resync(): void {
    if (this.#syncing) {
      this.#syncAgain = true;
      return;
    }
    this.#sync()
      .catch((error: unknown) =>
        this.#log.warn({ err: error }, 'permission rules not read again from Redis yet'),
      )
      .finally(() => {
        if (!this.#syncAgain) return;
        this.#syncAgain = false;
        this.#resync();
      });
  }

  /**
   * Writes what is pending, gives a cluster without rules (new, or a Redis that lost its data)
   * this node's, then takes the hash's rules with the changes that came meanwhile on top.
   */
  async #sync(): Promise<void> {
    this.#syncing = true;
    this.#held = [];
    let read = false;
    try {
      // A reply on the subscriber comes once it is subscribed: no change between misses the read.
      await this.#subscriber.ping();
      for (const change of [...this.#pending.values()]) {
        await this.#send(change);
        this.#taken(change);
      }
      if (!(await this.#redis.exists(this.#keys.rulesShared))) {
        for (const rule of this.#book.apiRules()) await this.#send({ kind: 'put', rule });
        await this.#redis.set(this.#keys.rulesShared, this.#self);
      }
      const stored = await this.#redis.hgetall(this.#keys.rules);
      const rules = new Map(
        Object.entries(stored).map(([id, text]) => [id, JSON.parse(text) as PermissionRule]),
      );
      for (const change of [...this.#held, ...this.#pending.values()]) merged(rules, change);
      this.#book.replaceApiRules([...rules.values()]);
      read = true;
    } finally {
      const held = this.#held;
      this.#held = null;
      this.#syncing = false;
      if (!read) for (const change of held) this.#applied(change);
    }
    this.#flush();
  }

  #received(text: string): void {
    let shared: SharedChange;
    try {
      shared = JSON.parse(text) as SharedChange;
    } catch {
      return;
    }
    if (!shared?.change || shared.node === this.#self) return;
    if (this.#held) this.#held.push(shared.change);
    else this.#applied(shared.change);
  }

  /**
   * Another node's change, applied here unless this node has a later version of the rule (an
   * announcement may arrive after this node's own later write was taken) or a change of it not
   * written yet (which is written after, so it is the cluster's last).
   */
  #applied(change: RuleChange): void {
    const id = idOf(change);
    if (this.#pending.has(id)) return;
    if (
      change.kind === 'put' &&
      (this.#book.get(id)?.updatedAt ?? -Infinity) > change.rule.updatedAt
    )
      return;
    this.#book.applyShared(change);
  }
}

function idOf(change: RuleChange): string {
  return change.kind === 'delete' ? change.id : change.rule.id;
}

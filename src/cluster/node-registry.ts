import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { RedisKeys } from './redis-keys.js';

/** What a node says of itself in Redis. */
export interface NodeDescription {
  readonly name: string;
  readonly url: string;
  readonly startedAt: number;
}

export interface NodeState extends NodeDescription {
  readonly alive: boolean;
}

/** Takes the lease when it is free or already ours, and writes the node's description. */
const renewScript = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
return 1`;

const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The nodes of the cluster and their liveness. A node holds a lease (a key with a TTL) that it
 * renews three times per lease; a node whose lease lapsed is down. A node that joins or leaves
 * says so on a channel, and every node reads the leases again at once: the others would see it
 * only at their next read, a third of a lease later, and meanwhile its sessions as UNREACHABLE.
 * A name is held by one running hub at a time: a second hub with the same name waits for the
 * first one's lease to lapse.
 */
export class NodeRegistry {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #keys: RedisKeys;
  readonly #self: NodeDescription;
  readonly #leaseMs: number;
  readonly #log: Logger;
  readonly #instance = randomUUID();
  #nodes = new Map<string, NodeState>();
  #timer: NodeJS.Timeout | null = null;
  #renewedAt = 0;
  #graceUntil = 0;
  /** The read of the leases under way, and whether another must follow it. */
  #refreshing: Promise<void> | null = null;
  #refreshAgain = false;
  readonly #onMessage = (channel: string): void => {
    if (channel === this.#keys.nodeChanges) this.#refreshSoon();
  };
  readonly #changed: (before: NodeState | undefined, after: NodeState | undefined) => void;

  constructor(
    deps: { redis: Redis; subscriber: Redis; keys: RedisKeys; log: Logger },
    self: NodeDescription,
    options: {
      leaseMs: number;
      /** Called for each node whose liveness or description changed. */
      changed: (before: NodeState | undefined, after: NodeState | undefined) => void;
    },
  ) {
    this.#redis = deps.redis;
    this.#subscriber = deps.subscriber;
    this.#keys = deps.keys;
    this.#log = deps.log;
    this.#self = self;
    this.#leaseMs = options.leaseMs;
    this.#changed = options.changed;
  }

  get self(): NodeDescription {
    return this.#self;
  }

  /** Takes this node's lease, waiting out a previous holder's (a crashed process of the same node). */
  async join(): Promise<void> {
    const deadline = Date.now() + this.#leaseMs + 1000;
    while (!(await this.#renew())) {
      if (Date.now() > deadline) {
        throw new Error(
          `node name ${this.#self.name} is held by another running hub; give this one another --node-name`,
        );
      }
      await sleep(Math.min(250, this.#leaseMs / 4));
    }
    this.#subscriber.on('message', this.#onMessage);
    await this.#subscriber.subscribe(this.#keys.nodeChanges);
    await this.refresh();
    await this.#announce();
    this.#timer = setInterval(() => void this.#tick(), this.#leaseMs / 3);
    this.#timer.unref();
    this.#redis.on('ready', () => {
      this.#graceUntil = Date.now() + this.#leaseMs;
      void this.#tick();
    });
  }

  /** Every node that has joined, alive or not, by name. */
  list(): NodeState[] {
    return [...this.#nodes.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): NodeState | undefined {
    return this.#nodes.get(name);
  }

  isAlive(name: string): boolean {
    if (name === this.#self.name) return Date.now() - this.#renewedAt < this.#leaseMs;
    return this.#nodes.get(name)?.alive ?? false;
  }

  async leave(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#subscriber.off('message', this.#onMessage);
    await this.#redis
      .eval(releaseScript, 1, this.#keys.lease(this.#self.name), this.#instance)
      .catch(() => undefined);
    await this.#announce();
  }

  /** Tells the other nodes to read the leases again. */
  async #announce(): Promise<void> {
    await this.#redis.publish(this.#keys.nodeChanges, this.#self.name).catch(() => undefined);
  }

  /** Reads the leases again now, or once the read under way ends (it may have read too soon). */
  #refreshSoon(): void {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = this.refresh()
      .catch((error: unknown) =>
        this.#log.debug({ err: error }, 'nodes not read (Redis unreachable)'),
      )
      .finally(() => {
        this.#refreshing = null;
        if (this.#refreshAgain) {
          this.#refreshAgain = false;
          this.#refreshSoon();
        }
      });
  }

  async #tick(): Promise<void> {
    try {
      if (!(await this.#renew())) {
        this.#log.error({ node: this.#self.name }, 'another hub holds this node name now');
      }
      await this.refresh();
    } catch (error) {
      this.#log.debug({ err: error }, 'node lease not renewed (Redis unreachable)');
    }
  }

  async #renew(): Promise<boolean> {
    const renewed = await this.#redis.eval(
      renewScript,
      2,
      this.#keys.lease(this.#self.name),
      this.#keys.nodes,
      this.#instance,
      this.#leaseMs,
      this.#self.name,
      JSON.stringify(this.#self),
    );
    if (renewed === 1) this.#renewedAt = Date.now();
    return renewed === 1;
  }

  /** Reads every node and its lease from Redis (done each third of a lease, and on demand). */
  async refresh(): Promise<void> {
    const described = await this.#redis.hgetall(this.#keys.nodes);
    const names = Object.keys(described);
    const leases = names.length
      ? await this.#redis.mget(...names.map((name) => this.#keys.lease(name)))
      : [];
    // Right after Redis came back (maybe empty, after a restart) every lease may be gone: the
    // nodes alive before get one lease to renew theirs. A node missing from Redis stays known.
    const before = this.#nodes;
    const grace = Date.now() < this.#graceUntil;
    const nodes = new Map<string, NodeState>(
      [...before].map(([name, node]) => [name, { ...node, alive: grace && node.alive }]),
    );
    names.forEach((name, i) => {
      const description = JSON.parse(described[name]!) as NodeDescription;
      const alive = leases[i] !== null || (grace && before.get(name)?.alive === true);
      nodes.set(name, { ...description, alive });
    });
    this.#nodes = nodes;
    for (const name of new Set([...before.keys(), ...nodes.keys()])) {
      const [was, is] = [before.get(name), nodes.get(name)];
      if (was?.alive !== is?.alive || was?.url !== is?.url) this.#changed(was, is);
    }
  }
}

/** Every Redis key and channel a cluster uses, under one prefix. */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** The secret nodes authenticate to each other with (made by the first node). */
  get secret(): string {
    return `${this.prefix}:secret`;
  }
  /** Hash: node name -> its JSON description. */
  get nodes(): string {
    return `${this.prefix}:nodes`;
  }
  /** String with a TTL: present while the node runs. */
  lease(node: string): string {
    return `${this.prefix}:lease:${node}`;
  }
  /** Channel: a node's name, as it joins or leaves; every node reads the leases again. */
  get nodeChanges(): string {
    return `${this.prefix}:node-changes`;
  }
  /** Hash per record kind: id -> the owner's JSON view of the record. */
  records(kind: RecordKind): string {
    return `${this.prefix}:${kind}`;
  }
  /** Channel: every record change, as JSON. */
  get changes(): string {
    return `${this.prefix}:changes`;
  }
  /** Hash: rule id -> the JSON of a permission rule made through the API (the cluster's, not a node's). */
  get rules(): string {
    return `${this.prefix}:rules`;
  }
  /** String: present once the cluster has rules of its own (its value: the node that gave them). */
  get rulesShared(): string {
    return `${this.prefix}:rules-shared`;
  }
  /** Channel: every rule change, as JSON with the node that made it. */
  get ruleChanges(): string {
    return `${this.prefix}:rule-changes`;
  }
  /** Hash: account -> the JSON of the usage limit it is under (the node that learned it). */
  get limits(): string {
    return `${this.prefix}:usage-limits`;
  }
  /** Channel: every usage limit a node learned, as the hash holds it. */
  get limitChanges(): string {
    return `${this.prefix}:usage-limit-changes`;
  }
  /** Hash: schedule id -> the JSON of a scheduled prompt (the cluster's, not a node's). */
  get schedules(): string {
    return `${this.prefix}:schedules`;
  }
  /** String: present once the cluster has schedules of its own (its value: the node that gave them). */
  get schedulesShared(): string {
    return `${this.prefix}:schedules-shared`;
  }
  /** Channel: every schedule made, deleted or run, as JSON with the node that did it. */
  get scheduleChanges(): string {
    return `${this.prefix}:schedule-changes`;
  }
  /** String with a TTL: the node that fires a schedule's tick (see RedisTickClaims). */
  scheduleTick(scheduleId: string, tickAt: number): string {
    return `${this.prefix}:schedule-tick:${scheduleId}:${tickAt}`;
  }
  /** Stream: a session's events, with IDs 0-<seq>. */
  events(sessionId: string): string {
    return `${this.prefix}:events:${sessionId}`;
  }
  sessionOfEvents(key: string): string {
    return key.slice(`${this.prefix}:events:`.length);
  }
}

export type RecordKind = 'sessions' | 'permissions' | 'messages';

/** Stream entry IDs carry the seq, so a read after seq N is a range from (0-N. */
export function entryId(seq: number): string {
  return `0-${seq}`;
}

export function seqOf(entryId: string): number {
  return Number(entryId.slice(entryId.indexOf('-') + 1));
}

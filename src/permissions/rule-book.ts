import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import { Topic } from '../events/topic.js';
import type { RecordTable } from '../store/record-table.js';
import { Policy } from './policy.js';
import {
  checkRuleInput,
  RuleInputError,
  RuleSource,
  type PermissionRule,
  type RuleInput,
} from './rule.js';
import { orderRules } from './rule-match.js';

/** A change to the rules made through the API on this node, as the cluster shares it. */
export type RuleChange =
  | { readonly kind: 'put'; readonly rule: PermissionRule }
  | { readonly kind: 'delete'; readonly id: string };

/**
 * The permission rules in force: those made through the API (kept in the store, shared with the
 * cluster) and those of the --policy-file (read again when it changes, never stored). The
 * compiled Policy is rebuilt on each change, so a hook call tries rules without compiling any.
 */
export class RuleBook {
  readonly #store: Pick<RecordTable<PermissionRule>, 'loadAll' | 'save' | 'delete'>;
  readonly #clock: Clock;
  readonly #api = new Map<string, PermissionRule>();
  #file: readonly PermissionRule[] = [];
  #policy = new Policy([]);
  /** Changes made here through the API, for the cluster's other nodes. */
  readonly localChanges = new Topic<RuleChange>();
  /** Every change of the rules in force, wherever it came from. */
  readonly changed = new Topic<{ readonly enabled: number }>();

  constructor(
    store: Pick<RecordTable<PermissionRule>, 'loadAll' | 'save' | 'delete'>,
    clock: Clock = systemClock,
  ) {
    this.#store = store;
    this.#clock = clock;
    for (const rule of store.loadAll()) this.#api.set(rule.id, rule);
    this.#rebuild();
  }

  get policy(): Policy {
    return this.#policy;
  }

  /** Every rule, enabled or not, in the order they are tried (the disabled ones last). */
  list(): PermissionRule[] {
    return orderRules([...this.#api.values(), ...this.#file]);
  }

  /**
   * The rules now, then again after each change (made here, on another node, or by the policy
   * file). Changes that come while the reader is busy make one list: each is the whole set.
   * return() ends it at once, also while it waits.
   */
  watch(): AsyncIterableIterator<PermissionRule[]> {
    let due = true;
    let ended = false;
    let wake: (() => void) | null = null;
    const stop = this.changed.listen(() => {
      due = true;
      wake?.();
    });
    const list = () => this.list();
    return {
      async next() {
        while (!due && !ended) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        if (ended) return { value: undefined, done: true };
        due = false;
        return { value: list(), done: false };
      },
      return() {
        ended = true;
        stop();
        wake?.();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  get(id: string): PermissionRule | undefined {
    return this.#api.get(id) ?? this.#file.find((rule) => rule.id === id);
  }

  create(input: RuleInput, createdBy: string | null): PermissionRule {
    const fields = checkedInput(input);
    this.#nameFree(fields.name, null);
    const now = this.#clock.now();
    const rule: PermissionRule = {
      ...fields,
      id: randomUUID(),
      source: RuleSource.Api,
      createdAt: now,
      createdBy,
      updatedAt: now,
    };
    this.#put(rule);
    return rule;
  }

  update(id: string, input: RuleInput): PermissionRule {
    const before = this.#editable(id);
    const fields = checkedInput(input);
    this.#nameFree(fields.name, id);
    const rule: PermissionRule = { ...before, ...fields, updatedAt: this.#clock.now() };
    this.#put(rule);
    return rule;
  }

  delete(id: string): boolean {
    this.#editable(id);
    this.#api.delete(id);
    this.#store.delete([id]);
    this.#rebuild();
    this.localChanges.publish({ kind: 'delete', id });
    return true;
  }

  /** The policy file's rules, replacing its previous ones. */
  setFileRules(rules: readonly PermissionRule[]): void {
    this.#file = rules;
    this.#rebuild();
  }

  /** The API rules' names, which file rules may not take. */
  apiNames(): Set<string> {
    return new Set([...this.#api.values()].map((rule) => rule.name));
  }

  /** A change another node made: kept here too, not shared again. */
  applyShared(change: RuleChange): void {
    if (change.kind === 'put') {
      this.#api.set(change.rule.id, change.rule);
      this.#store.save(change.rule);
    } else if (this.#api.delete(change.id)) {
      this.#store.delete([change.id]);
    }
    this.#rebuild();
  }

  /** The API rules, for a node that shares them with a cluster that had none. */
  apiRules(): PermissionRule[] {
    return [...this.#api.values()];
  }

  /** The cluster's API rules, which replace this node's (they are the cluster's from now on). */
  replaceApiRules(rules: readonly PermissionRule[]): void {
    const gone = [...this.#api.keys()].filter((id) => !rules.some((rule) => rule.id === id));
    this.#api.clear();
    for (const rule of rules) {
      this.#api.set(rule.id, rule);
      this.#store.save(rule);
    }
    this.#store.delete(gone);
    this.#rebuild();
  }

  #put(rule: PermissionRule): void {
    this.#api.set(rule.id, rule);
    this.#store.save(rule);
    this.#rebuild();
    this.localChanges.publish({ kind: 'put', rule });
  }

  #editable(id: string): PermissionRule {
    const rule = this.get(id);
    if (!rule)
      throw new HubError(ErrorCode.RuleNotFound, `no permission rule has id ${JSON.stringify(id)}`);
    if (rule.source === RuleSource.File)
      throw new HubError(
        ErrorCode.RuleReadOnly,
        `rule ${JSON.stringify(rule.name)} comes from the policy file ${rule.createdBy}: change it there`,
      );
    return rule;
  }

  #nameFree(name: string, id: string | null): void {
    const taken = [...this.#api.values(), ...this.#file].find(
      (rule) => rule.name === name && rule.id !== id,
    );
    if (taken)
      throw new HubError(ErrorCode.BadInput, `a rule named ${JSON.stringify(name)} exists`, {
        field: 'name',
      });
  }

  #rebuild(): void {
    this.#policy = new Policy([...this.#api.values(), ...this.#file]);
    this.changed.publish({ enabled: this.#policy.size });
  }
}

/** The input checked, or BAD_USER_INPUT naming the part that is wrong. */
function checkedInput(input: RuleInput): ReturnType<typeof checkRuleInput> {
  try {
    return checkRuleInput(input);
  } catch (error) {
    if (error instanceof RuleInputError)
      throw new HubError(ErrorCode.BadInput, `invalid rule: ${error.message}`, {
        field: error.field,
      });
    throw error;
  }
}

import type { Logger } from '../log.js';
import { isRunning, type SessionRecord } from './session.js';

/**
 * Where sessions' hooks reach the hub. claude reads its `--settings` once, at launch (a rewrite
 * of the file is not reloaded, and fires no ConfigChange), so a session keeps posting to the
 * address it was launched with for as long as it runs. When the hub comes back on another
 * address, it listens on each earlier address its running sessions still post to, for hooks
 * (and the MCP server beside them) only, until no running session needs it.
 */
export interface HookAddress {
  /** Where sessions launched now post their hooks. */
  readonly url: string;
  /** Answers hooks at an earlier URL too; resolves with why not when its port cannot be had. */
  reclaim(url: string): Promise<string | null>;
  /** Stops listening at an earlier URL no running session posts to any more. */
  release(url: string): Promise<void>;
  /** The earlier URLs answered now. */
  readonly reclaimed: readonly string[];
}

/** The hub's hook address once it listens, and the earlier ones it answers while needed. */
export class HookUrls {
  address: HookAddress = {
    url: '',
    reclaim: () => Promise.resolve('the hub has not started'),
    release: () => Promise.resolve(),
    reclaimed: [],
  };
  readonly #sessions: () => Iterable<SessionRecord>;
  readonly #log: Logger;

  constructor(sessions: () => Iterable<SessionRecord>, log: Logger) {
    this.#sessions = sessions;
    this.#log = log;
  }

  get url(): string {
    return this.address.url;
  }

  /** Stops listening on earlier hook URLs that no running session posts to any more. */
  async releaseUnused(): Promise<void> {
    for (const url of this.address.reclaimed) {
      const used = [...this.#sessions()].some(
        (record) => isRunning(record.status) && record.hookUrl === url,
      );
      if (used) continue;
      await this.address.release(url);
      this.#log.info({ url }, 'no session posts hooks here any more');
    }
  }
}

import { constants } from 'node:fs';
import { access, mkdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log.js';
import { scanForEventArrays, type ScanOptions } from './binary-event-scan.js';
import {
  claudeVersion,
  testedClaudeVersions,
  versionStanding,
  type VersionStanding,
} from './claude-version.js';
import { askClaudeForHookEvents } from './hook-event-probe.js';
import {
  isHookEventList,
  pickEventArray,
  registryHookEvents,
  supportedHookEvents,
  type HookEventSource,
  type SupportedHookEvent,
} from './hook-event-support.js';

/** What the hub knows of one claude binary. */
export interface ClaudeFacts {
  /** As configured (`--claude-bin`). */
  readonly bin: string;
  /** From `claude --version`; null when it did not run. */
  readonly version: string | null;
  /** Against the range the suite has passed on; unknown without a version. */
  readonly standing: VersionStanding | 'unknown';
  /** Every event its sessions register, in the CLI's order. */
  readonly hookEvents: readonly SupportedHookEvent[];
  readonly hookEventSource: HookEventSource;
  /** What went wrong learning them (the registry's list stands in), or null. */
  readonly problem: string | null;
}

export interface ClaudeCliOptions {
  /** Holds the cache of learned event lists. */
  readonly dataDir: string;
  /** The environment sessions start claude with: its PATH finds a bare name. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long the probe may run claude (see askClaudeForHookEvents). */
  readonly probeTimeoutMs: number;
  /** How the binary is read when the probe gives no list. */
  readonly scan: Omit<ScanOptions, 'signal'>;
  readonly log: Logger;
}

/**
 * Learning a claude's hook events: how long claude may take to list them (it answers in under a
 * second), and how its binary is read when it does not (1 MiB at a time, in a worker thread).
 */
export const claudeProbeBounds = {
  probeTimeoutMs: 20_000,
  scan: { chunkBytes: 1024 * 1024, maxArrayBytes: 16 * 1024, maxArrays: 64 },
} as const;

/** Binaries the cache remembers; the oldest entry goes first past this. */
const cacheEntries = 16;
const cacheFile = 'claude-hook-events.json';

interface CacheEntry {
  readonly names: string[];
  readonly source: HookEventSource;
  readonly at: number;
}

/**
 * The claude CLIs the hub runs: each binary's version and hook events, learned once per binary
 * file (a path, size and modification time: an upgrade in place is a new file) and kept in the
 * data dir, so a restart asks nothing of a binary it has seen.
 *
 * The events come from the CLI itself, by the most faithful way that works:
 * 1. asking claude (askClaudeForHookEvents): its settings validator's own list, whatever the
 *    install (native binary, JS bundle, a wrapper script), in about 0.4 s, offline;
 * 2. else reading the list out of the binary (scanForEventArrays): no process, but it leans on
 *    how the bundle spells the array, and a wrapper script hides it;
 * 3. else the registry's own events, with a warning: a newer CLI's new events are then missed.
 */
export class ClaudeCli {
  readonly #options: ClaudeCliOptions;
  readonly #learned = new Map<string, Promise<ClaudeFacts>>();
  readonly #stop = new AbortController();

  constructor(options: ClaudeCliOptions) {
    this.#options = options;
  }

  /** What is known of the claude at `bin`; never rejects (a claude that does not run says so). */
  async facts(bin: string): Promise<ClaudeFacts> {
    const file = await this.#identify(bin);
    const key = file ? `${file.path}\0${file.size}\0${file.mtimeMs}` : `\0${bin}`;
    let facts = this.#learned.get(key);
    if (!facts) {
      // Once closed, nothing is started: close() no longer waits for it.
      facts = this.#stop.signal.aborted
        ? Promise.resolve(this.#fallback(bin, null, 'the hub is stopping'))
        : this.#learn(bin, file, key);
      this.#learned.set(key, facts);
    }
    return facts;
  }

  /** The events a session of the claude at `bin` registers. */
  async hookEvents(bin: string): Promise<readonly SupportedHookEvent[]> {
    return (await this.facts(bin)).hookEvents;
  }

  /** Stops what is being learned (its processes are killed) and waits for it to end. */
  async close(): Promise<void> {
    this.#stop.abort();
    await Promise.allSettled(this.#learned.values());
  }

  async #learn(bin: string, file: BinaryFile | null, key: string): Promise<ClaudeFacts> {
    const { env, log } = this.#options;
    const signal = this.#stop.signal;
    let version: string;
    try {
      version = await claudeVersion(bin, env, signal);
    } catch (error) {
      const facts = this.#fallback(bin, null, `claude did not run: ${(error as Error).message}`);
      if (!signal.aborted) log.warn({ bin, err: error }, 'claude did not run');
      return facts;
    }
    const cacheKey = `${key}\0${version}`;
    const cached = await this.#readCache(cacheKey);
    let learned: { names: string[]; source: HookEventSource } | null = cached;
    const problems: string[] = [];
    if (!learned) {
      try {
        learned = {
          names: await askClaudeForHookEvents(bin, {
            env,
            timeoutMs: this.#options.probeTimeoutMs,
            signal,
          }),
          source: 'cli',
        };
      } catch (error) {
        problems.push(`asking claude: ${(error as Error).message}`);
      }
    }
    if (!learned && file && !signal.aborted) {
      try {
        const names = pickEventArray(
          await scanForEventArrays(file.path, { ...this.#options.scan, signal }),
        );
        if (names) learned = { names, source: 'binary' };
        else problems.push(`reading ${file.path}: no list of hook events in it`);
      } catch (error) {
        problems.push(`reading ${file.path}: ${(error as Error).message}`);
      }
    }
    const facts = learned
      ? this.#factsOf(bin, version, supportedHookEvents(learned.names), learned.source, null)
      : this.#fallback(bin, version, problems.join('; '));
    if (learned?.source === 'binary' && !signal.aborted)
      log.warn(
        { bin, problem: problems.join('; ') },
        'claude listed no hook events: they were read from its binary',
      );
    if (learned && !cached) await this.#writeCache(cacheKey, learned);
    if (!signal.aborted) this.#report(facts);
    return facts;
  }

  #fallback(bin: string, version: string | null, problem: string): ClaudeFacts {
    return this.#factsOf(bin, version, registryHookEvents, 'registry', problem);
  }

  #factsOf(
    bin: string,
    version: string | null,
    hookEvents: readonly SupportedHookEvent[],
    hookEventSource: HookEventSource,
    problem: string | null,
  ): ClaudeFacts {
    const standing = version === null ? 'unknown' : versionStanding(version);
    return { bin, version, standing, hookEvents, hookEventSource, problem };
  }

  /** One line per binary learned; a warning when it is outside the tested range or unread. */
  #report(facts: ClaudeFacts): void {
    const { oldest, newest } = testedClaudeVersions;
    const untyped = facts.hookEvents.filter((event) => !event.typed).map((event) => event.name);
    this.#options.log.info(
      {
        bin: facts.bin,
        version: facts.version,
        tested: `${oldest} to ${newest}`,
        hookEvents: facts.hookEvents.length,
        hookEventsFrom: facts.hookEventSource,
        untyped,
      },
      'claude CLI',
    );
    if (facts.standing === 'older' || facts.standing === 'newer') {
      this.#options.log.warn(
        { bin: facts.bin, version: facts.version },
        `claude ${facts.version} is ${facts.standing} than the versions tested (${oldest} to ${newest})`,
      );
    }
    if (facts.problem !== null) {
      this.#options.log.warn(
        { bin: facts.bin, version: facts.version, problem: facts.problem },
        `the hook events of claude could not be learned: its sessions register the registry's ${facts.hookEvents.length}`,
      );
    }
  }

  /** The file `bin` runs, symlinks resolved; null when there is none (or it is not executable). */
  async #identify(bin: string): Promise<BinaryFile | null> {
    const dirs = bin.includes('/')
      ? ['']
      : (this.#options.env.PATH ?? '').split(path.delimiter).filter(Boolean);
    for (const dir of dirs) {
      const candidate = path.resolve(dir, bin);
      try {
        await access(candidate, constants.X_OK);
        const real = await realpath(candidate);
        const info = await stat(real);
        if (info.isFile()) return { path: real, size: info.size, mtimeMs: info.mtimeMs };
      } catch {
        // not here: the next directory of PATH
      }
    }
    return null;
  }

  async #readCache(key: string): Promise<{ names: string[]; source: HookEventSource } | null> {
    const entry = (await this.#readCacheFile())[key];
    return entry &&
      Array.isArray(entry.names) &&
      isHookEventList(entry.names) &&
      (entry.source === 'cli' || entry.source === 'binary')
      ? { names: entry.names, source: entry.source }
      : null;
  }

  async #readCacheFile(): Promise<Record<string, CacheEntry>> {
    try {
      const value: unknown = JSON.parse(
        await readFile(path.join(this.#options.dataDir, cacheFile), 'utf8'),
      );
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, CacheEntry>)
        : {};
    } catch {
      return {}; // none yet, or unreadable: learned again and rewritten
    }
  }

  /** Written whole through a temp file, so a reader never sees half of it. */
  async #writeCache(key: string, learned: { names: string[]; source: HookEventSource }) {
    try {
      const entries = { ...(await this.#readCacheFile()), [key]: { ...learned, at: Date.now() } };
      const kept = Object.entries(entries)
        .sort(([, a], [, b]) => (b.at ?? 0) - (a.at ?? 0))
        .slice(0, cacheEntries);
      const file = path.join(this.#options.dataDir, cacheFile);
      await mkdir(this.#options.dataDir, { recursive: true });
      await writeFile(`${file}.tmp`, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`, {
        mode: 0o600,
      });
      await rename(`${file}.tmp`, file);
    } catch (error) {
      this.#options.log.warn({ err: error }, 'the hook events learned could not be cached');
    }
  }
}

interface BinaryFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock.js';
import { stringField, type StoredEvent } from '../events/hook-event.js';
import { nearestGitEntry } from '../git/git-entry.js';
import type { TreeSnapshots } from '../git/tree-snapshots.js';
import type { Logger } from '../log.js';
import type { ChangeMarks } from './change-marks.js';

/** Tools that change no file: no snapshot follows them. */
const readOnlyTools = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'NotebookRead',
  'BashOutput',
  'ExitPlanMode',
  'AskUserQuestion',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

/**
 * Whether a snapshot follows this event: a turn's start and end, and each tool call that may
 * have changed a file (the hub's own MCP tools change none). Pure.
 */
export function marksAfter(event: Pick<StoredEvent, 'eventName' | 'payload'>): boolean {
  switch (event.eventName) {
    case 'UserPromptSubmit':
    case 'Stop':
    case 'StopFailure':
      return true;
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = stringField(event.payload, 'tool_name') ?? '';
      return !readOnlyTools.has(tool) && !tool.startsWith('mcp__hub__');
    }
    default:
      return false;
  }
}

export interface WorkTreeMarksOptions {
  /** Where the hub keeps each session's own index (one file per session). */
  readonly folder: string;
  /** The longest a hook answer waits for its snapshot; past it claude goes on, and the mark is late. */
  readonly waitMs: number;
  /**
   * A session whose last snapshot took longer than this (a very large checkout) has its hooks
   * answered at once: its snapshots run beside claude instead of making it wait.
   */
  readonly quickMs: number;
}

/** A cwd's checkout top as asked of git; `known` once git answered. */
interface TopLookup {
  readonly cwd: string;
  /** The `.git` git was asked about (nearestGitEntry); null: none, and git was not asked. */
  readonly gitEntry: string | null;
  readonly top: Promise<string | null>;
  known?: string | null;
}

/** The session as the marks see it. */
export interface MarkedSession {
  readonly id: string;
  readonly cwd: string;
}

/**
 * Snapshots of each session's work tree at its turn starts, after its tool calls and at its
 * turn ends, kept as marks (ChangeMarks): a turn's changes are the difference between two, and
 * the marks in between say which call made which. Only sessions whose cwd is in a git checkout
 * have them. A session's snapshots run one at a time (they share its index), and a hook answer
 * waits for its own at most `waitMs`, and not at all while the session's snapshots are slow.
 */
export class WorkTreeMarks {
  readonly #options: WorkTreeMarksOptions;
  readonly #snapshots: TreeSnapshots;
  readonly #marks: ChangeMarks;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** Per session, its cwd's checkout top: asked of git once, and what git said once it did. */
  readonly #tops = new Map<string, TopLookup>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #warned = new Set<string>();
  /** Sessions whose last snapshot took longer than quickMs. */
  readonly #slow = new Set<string>();

  constructor(
    options: WorkTreeMarksOptions,
    deps: { snapshots: TreeSnapshots; marks: ChangeMarks; clock: Clock; log: Logger },
  ) {
    this.#options = options;
    this.#snapshots = deps.snapshots;
    this.#marks = deps.marks;
    this.#clock = deps.clock;
    this.#log = deps.log;
  }

  /**
   * Takes the snapshot an event calls for (marksAfter); what a hook answer waits for, at most
   * waitMs, or null when the event calls for none. Never rejects: a failure is logged.
   */
  after(session: MarkedSession, event: StoredEvent): Promise<void> | null {
    if (!marksAfter(event)) return null;
    const lookup = this.#tops.get(session.id);
    if (lookup?.known === null && lookup.cwd === session.cwd) {
      // No checkout: nothing to wait for. A turn's start looks again (`git init` since), aside:
      // git is asked again only once a `.git` came or went.
      if (event.eventName === 'UserPromptSubmit') void this.top(session, true);
      return null;
    }
    const taken = this.#take(session, event).catch((error: unknown) => {
      if (this.#warned.has(session.id)) return;
      this.#warned.add(session.id);
      this.#log.warn(
        { sessionId: session.id, cwd: session.cwd, err: error },
        "a snapshot of the session's work tree failed: its turns' changes come from its file tools' inputs until one succeeds",
      );
    });
    if (this.#slow.has(session.id)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.#options.waitMs);
      timer.unref();
      void taken.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * The checkout top of the session's cwd; null when it is in none. With `again`, looked up
   * anew if the nearest `.git` is not the one it was.
   */
  top(session: MarkedSession, again = false): Promise<string | null> {
    const known = this.#tops.get(session.id);
    const sameCwd = known?.cwd === session.cwd;
    if (sameCwd && !again) return known!.top;
    const gitEntry = nearestGitEntry(session.cwd);
    if (sameCwd && gitEntry === known!.gitEntry) return known!.top;
    const lookup: TopLookup = {
      cwd: session.cwd,
      gitEntry,
      top:
        gitEntry === null
          ? Promise.resolve(null)
          : this.#snapshots.top(session.cwd).catch(() => null),
    };
    if (gitEntry === null) lookup.known = null;
    else void lookup.top.then((top) => (lookup.known = top));
    this.#tops.set(session.id, lookup);
    return lookup.top;
  }

  /** The work tree as a tree now, stored nowhere; null outside a checkout. */
  async now(session: MarkedSession): Promise<{ top: string; tree: string } | null> {
    const top = await this.top(session);
    if (top === null) return null;
    const tree = await this.#serial(session.id, () =>
      this.#snapshots.snapshot(top, this.#indexFile(session.id)),
    );
    return { top, tree };
  }

  /** Forgets the marks and index of every session not in `kept`. */
  async prune(kept: ReadonlySet<string>): Promise<void> {
    const gone = this.#marks.sessions().filter((id) => !kept.has(id));
    this.#marks.forget(gone);
    for (const id of gone) {
      this.#tops.delete(id);
      this.#warned.delete(id);
      this.#slow.delete(id);
      await rm(this.#indexFile(id), { force: true });
    }
  }

  async #take(session: MarkedSession, event: StoredEvent): Promise<void> {
    const top = await this.top(session);
    if (top === null) return;
    const tree = await this.#serial(session.id, async () => {
      const started = performance.now();
      const made = await this.#snapshots.snapshot(top, this.#indexFile(session.id));
      if (performance.now() - started > this.#options.quickMs) this.#slow.add(session.id);
      else this.#slow.delete(session.id);
      return made;
    });
    this.#marks.add(session.id, { seq: event.seq, tree, at: this.#clock.now() });
    this.#warned.delete(session.id);
  }

  #serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#queues.set(id, settled);
    void settled.then(() => {
      if (this.#queues.get(id) === settled) this.#queues.delete(id);
    });
    return next;
  }

  #indexFile(id: string): string {
    // Session ids are the hub's own UUIDs: nothing a client names reaches this path.
    return path.join(this.#options.folder, `${id.replace(/[^A-Za-z0-9-]/g, '_')}.index`);
  }
}

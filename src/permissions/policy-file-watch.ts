import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { systemClock, type Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { fileRules, parsePolicyFile, PolicyFileError } from './policy-file.js';
import type { PermissionRule } from './rule.js';
import type { RuleBook } from './rule-book.js';

export interface PolicyFileOptions {
  /** The file, absolute. */
  readonly path: string;
  /** How long after a change in the file's folder it is read: an editor's writes come as one. */
  readonly debounceMs: number;
  /** A larger file is refused (the rules in force stay). */
  readonly maxBytes: number;
  readonly log: Logger;
  readonly clock?: Clock;
}

/** How the latest load of the policy file went, for Query.policyFile. */
export interface PolicyFileStatus {
  readonly path: string;
  /** When the rules in force were read from the file; null before the first load. */
  readonly loadedAt: number | null;
  /** The file's rules in force. */
  readonly rules: number;
  /** Why the latest read did not load (the rules before it stay in force); null when it loaded. */
  readonly error: {
    readonly message: string;
    readonly line: number | null;
    readonly at: number;
  } | null;
}

/**
 * The --policy-file, loaded into the rule book at start and again whenever it changes. Its
 * folder is watched, not the file: editors save by writing a new file and renaming it over the
 * old one, which would end a watch on the file. A read that does not load (a broken edit, a
 * file removed) leaves the rules loaded before in force, and says why in the log and the status.
 */
export class PolicyFileWatch {
  readonly #options: PolicyFileOptions;
  readonly #clock: Clock;
  readonly #rules: Pick<RuleBook, 'setFileRules' | 'apiNames'>;
  #watcher: FSWatcher | null = null;
  #cancelRead: (() => void) | null = null;
  /** The text of the latest read, so an unchanged rewrite does nothing; null when there was none. */
  #text: string | null = null;
  /** The rules of the latest load, in force. */
  #loaded: readonly PermissionRule[] = [];
  #status: PolicyFileStatus;

  constructor(options: PolicyFileOptions, rules: Pick<RuleBook, 'setFileRules' | 'apiNames'>) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#rules = rules;
    this.#status = { path: options.path, loadedAt: null, rules: 0, error: null };
  }

  status(): PolicyFileStatus {
    return this.#status;
  }

  /**
   * Watches the file, then loads it (so no change after the read is missed). Throws
   * PolicyFileError when it does not load; close() ends the watch then too.
   */
  start(): void {
    const file = this.#options.path;
    const dir = path.dirname(file);
    try {
      this.#watcher = watch(dir, { persistent: false }, () => this.#changed());
    } catch (error) {
      const { message } = error as Error;
      throw new PolicyFileError(file, null, `cannot watch ${dir}: ${message}`, { cause: error });
    }
    this.#watcher.on('error', (error) => {
      this.#fail(new PolicyFileError(file, null, `watching ${dir}: ${error.message}`));
      this.close();
    });
    const text = this.#read();
    this.#load(text);
    this.#text = text;
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
    this.#cancelRead?.();
    this.#cancelRead = null;
  }

  /** Any change in the folder: the file is read once the debounce ends (a symlink may have moved). */
  #changed(): void {
    if (this.#cancelRead || !this.#watcher) return;
    this.#cancelRead = this.#clock.after(this.#options.debounceMs, () => {
      this.#cancelRead = null;
      this.#reload();
    });
  }

  #reload(): void {
    let text: string;
    try {
      text = this.#read();
    } catch (error) {
      if (this.#text !== null) this.#fail(error as PolicyFileError);
      this.#text = null;
      return;
    }
    if (text === this.#text) return;
    this.#text = text;
    try {
      this.#load(text);
    } catch (error) {
      this.#fail(
        error instanceof PolicyFileError
          ? error
          : new PolicyFileError(this.#options.path, null, String(error), { cause: error }),
      );
    }
  }

  /** The file's text; throws PolicyFileError when it is gone, unreadable or too large. */
  #read(): string {
    const file = this.#options.path;
    try {
      const { size } = statSync(file);
      if (size > this.#options.maxBytes)
        throw new PolicyFileError(file, null, `is ${size} bytes, over ${this.#options.maxBytes}`);
      return readFileSync(file, 'utf8');
    } catch (error) {
      if (error instanceof PolicyFileError) throw error;
      const { code, message } = error as NodeJS.ErrnoException;
      const gone = this.#status.loadedAt === null ? 'does not exist' : 'is gone';
      const detail = code === 'ENOENT' ? gone : message;
      throw new PolicyFileError(file, null, detail, { cause: error });
    }
  }

  #load(text: string): void {
    const file = this.#options.path;
    const parsed = parsePolicyFile(text, file, this.#rules.apiNames());
    const now = this.#clock.now();
    const rules = fileRules(parsed, file, now, this.#loaded);
    this.#rules.setFileRules(rules);
    this.#loaded = rules;
    this.#status = { path: file, loadedAt: now, rules: rules.length, error: null };
    this.#options.log.info({ policyFile: file, rules: rules.length }, 'policy file loaded');
  }

  #fail(error: PolicyFileError): void {
    const at = this.#clock.now();
    this.#status = { ...this.#status, error: { message: error.message, line: error.line, at } };
    this.#options.log.warn(
      { policyFile: this.#options.path, line: error.line, rules: this.#status.rules },
      `policy file not loaded, the rules before stay in force: ${error.message}`,
    );
  }
}

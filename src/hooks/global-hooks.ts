import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { secretEntry, Tokens, type TokenEntry } from '../auth/tokens.js';
import type { SupportedHookEvent } from '../claude/hook-event-support.js';
import { ErrorCode, HubError } from '../errors.js';
import {
  globalHookGroups,
  globalHookUrl,
  type HookSettingsOptions,
} from '../sessions/hook-settings.js';
import { claudeConfigDir } from '../sessions/transcript.js';
import {
  installHooks,
  readHookStatus,
  settingsPathFor,
  uninstallHooks,
  type InstallScope,
} from './settings-install.js';

/** A settings file, and the hub's hooks in it. */
export interface HookInstallation {
  readonly scope: InstallScope;
  readonly path: string;
  /** The events whose hooks post to a hub; empty when none is installed. */
  readonly events: readonly string[];
  /** Where they post. */
  readonly url: string | null;
  /** They post to this hub's hook address. */
  readonly current: boolean;
  /** The file as it was before the first install, when there was one. */
  readonly backupPath: string | null;
}

export interface GlobalHooksOptions extends Omit<HookSettingsOptions, 'hookUrl' | 'events'> {
  readonly dataDir: string;
  /**
   * The events to register: those the hub's claude supports, the claude a person most likely
   * runs too (one that does not know an event of its settings stops at a warning dialog at
   * every start); the registry's when absent.
   */
  readonly events?: () => Promise<readonly SupportedHookEvent[]>;
  /** Where sessions post their hooks now (the hub's address, known once it listens). */
  readonly hookUrl: () => string;
  /** The hub's environment, for the user's Claude config dir. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Throws when a project directory lies outside the allowed roots. */
  readonly checkProjectDir: (dir: string) => void;
  /** The configured tokens (`--tokens-file`): those of the `hook` scope are taken too. */
  readonly tokens: readonly TokenEntry[];
}

/**
 * The hooks that make every claude on the machine report to the hub, whoever started it: their
 * install into a user's or a project's settings, and the `hook` tokens they authenticate with.
 * The hub's own hook token is made once and kept in `<data dir>/hook-token` (mode 0600).
 */
export class GlobalHooks {
  readonly #options: GlobalHooksOptions;
  readonly #tokenPath: string;
  readonly #token: string;
  readonly #tokens: Tokens;

  constructor(options: GlobalHooksOptions) {
    this.#options = options;
    this.#tokenPath = path.join(options.dataDir, 'hook-token');
    this.#token = readOrMakeToken(this.#tokenPath);
    this.#tokens = new Tokens([
      secretEntry('hooks', 'hook', this.#token),
      ...options.tokens.filter((entry) => entry.scope === 'hook'),
    ]);
  }

  /** Whether a hook call's secret, by its hex SHA-256, is a token of the `hook` scope. */
  isHookToken(secretSha256: string): boolean {
    return this.#tokens.authenticateHash(Buffer.from(secretSha256, 'hex')) !== undefined;
  }

  status(scope: InstallScope, dir: string | null): HookInstallation {
    const file = this.#settingsPath(scope, dir);
    const found = readHookStatus(file);
    return this.#installation(scope, file, found.events, found.url);
  }

  async install(scope: InstallScope, dir: string | null): Promise<HookInstallation> {
    const file = this.#settingsPath(scope, dir);
    const { hookUrl, events, ...options } = this.#options;
    const groups = globalHookGroups({
      ...options,
      ...(events && { events: await events() }),
      hookUrl: hookUrl(),
      token: this.#token,
      tokenPath: this.#tokenPath,
    });
    this.#edit(() => installHooks(file, groups));
    return this.status(scope, dir);
  }

  uninstall(scope: InstallScope, dir: string | null): HookInstallation {
    const file = this.#settingsPath(scope, dir);
    this.#edit(() => uninstallHooks(file));
    return this.status(scope, dir);
  }

  /**
   * At start: the user's hooks that hold this hub's token but post to an address it had before
   * (it listens on another port now) are pointed here again, and `from` says where they posted.
   * claude reads them again by itself.
   */
  async follow(): Promise<(HookInstallation & { readonly from: string | null }) | null> {
    const found = this.status('user', null);
    if (found.events.length === 0 || found.current) return null;
    if (!readFileSync(found.path, 'utf8').includes(this.#token)) return null;
    return { ...(await this.install('user', null)), from: found.url };
  }

  #installation(
    scope: InstallScope,
    file: string,
    events: readonly string[],
    url: string | null,
  ): HookInstallation {
    const backup = `${file}.claude-code-hub.bak`;
    const backupPath = existsSync(backup) ? backup : null;
    return {
      scope,
      path: file,
      events,
      url,
      current: url === globalHookUrl(this.#options.hookUrl()),
      backupPath,
    };
  }

  /** The settings file of the scope: the hub's user's config dir unless given, or the project's. */
  #settingsPath(scope: InstallScope, dir: string | null): string {
    if (scope === 'project') {
      if (!dir) throw new HubError(ErrorCode.BadInput, 'a project install needs the project dir');
      const resolved = path.resolve(dir);
      this.#options.checkProjectDir(resolved);
      return settingsPathFor(scope, resolved);
    }
    return settingsPathFor(scope, dir ? path.resolve(dir) : claudeConfigDir(this.#options.env));
  }

  /** A settings file that cannot be read or written is the caller's to fix: a clear error. */
  #edit(change: () => unknown): void {
    try {
      change();
    } catch (error) {
      throw new HubError(ErrorCode.BadInput, (error as Error).message, {}, { cause: error });
    }
  }
}

function readOrMakeToken(file: string): string {
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token) return token;
  } catch {
    // made below
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

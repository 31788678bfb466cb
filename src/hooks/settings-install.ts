import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { HookGroups } from '../sessions/hook-marks.js';
import { countHubHooks, hubHooksIn, mergeHubHooks, removeHubHooks } from './settings-merge.js';

/** user: the settings of every claude the user runs; project: one project's, kept out of git. */
export type InstallScope = 'user' | 'project';

const backupSuffix = '.claude-code-hub.bak';

/** Where Claude Code reads the settings of a scope; `dir` is the config dir or the project. */
export function settingsPathFor(scope: InstallScope, dir: string): string {
  switch (scope) {
    case 'user':
      return path.join(dir, 'settings.json');
    case 'project':
      return path.join(dir, '.claude', 'settings.local.json');
    default:
      throw new Error(`unknown install scope "${String(scope)}": expected user or project`);
  }
}

interface SettingsFile {
  readonly bytes: Buffer;
  readonly mode: number;
  readonly settings: Record<string, unknown>;
}

function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The parsed file, null when absent; its hooks' shape is checked here so errors name the file. */
function readSettings(file: string): SettingsFile | null {
  const bytes = readBytes(file);
  if (bytes === null) return null;
  let settings: unknown;
  try {
    settings = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    throw new Error(
      `${file} must hold a JSON object, got ${JSON.stringify(settings).slice(0, 60)}`,
    );
  const object = settings as Record<string, unknown>;
  try {
    hubHooksIn(object);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  return { bytes, mode: statSync(file).mode & 0o777, settings: object };
}

function toJson(settings: Record<string, unknown>): string {
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/** The file a write must replace: the target of a symlink, so a dotfiles link survives. */
function writeTarget(file: string): string {
  return existsSync(file) ? realpathSync(file) : file;
}

/**
 * Replaces a file in one rename, so Claude Code never reads half a settings file. The temp file
 * gets the final mode before any byte is written (umask can only tighten it), so the settings
 * are never readable by more users than the file allowed.
 */
function writeAtomic(file: string, data: string | Buffer, mode: number): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      fchmodSync(fd, mode);
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Merges the hub's hooks into a settings file. The first install keeps the file's bytes in a
 * backup, which uninstall puts back; a reinstall leaves that backup alone, since the file then
 * holds hub hooks already. Writes nothing when the file holds exactly these hooks.
 */
export function installHooks(
  settingsPath: string,
  groups: HookGroups,
): { path: string; backupPath: string | null; events: number; changed: boolean } {
  const current = readSettings(settingsPath);
  const backupPath = settingsPath + backupSuffix;
  const settings = current?.settings ?? {};
  const merged = mergeHubHooks(settings, groups);
  const events = hubHooksIn(merged).events.length;
  const changed = JSON.stringify(merged) !== JSON.stringify(settings);
  if (changed) {
    if (current === null) {
      // A leftover backup would describe a file that no longer exists.
      rmSync(backupPath, { force: true });
    } else if (countHubHooks(settings) === 0) {
      writeAtomic(backupPath, current.bytes, current.mode);
    }
    writeAtomic(writeTarget(settingsPath), toJson(merged), current?.mode ?? 0o600);
  }
  return {
    path: settingsPath,
    backupPath: existsSync(backupPath) ? backupPath : null,
    events,
    changed,
  };
}

/**
 * Takes the hub's hooks out of a settings file. If nothing else changed since install the
 * backup goes back, byte for byte; a file the install created and nothing else uses is deleted.
 */
export function uninstallHooks(settingsPath: string): {
  path: string;
  removed: number;
  restored: boolean;
} {
  const current = readSettings(settingsPath);
  const removed = current === null ? 0 : countHubHooks(current.settings);
  if (current === null || removed === 0) return { path: settingsPath, removed: 0, restored: false };
  const result = removeHubHooks(current.settings);
  const backupPath = settingsPath + backupSuffix;
  const backup = readBytes(backupPath);
  let restored = false;
  if (backup !== null && isDeepStrictEqual(withoutEmptyEvents(result), parseBackup(backup))) {
    const target = writeTarget(settingsPath);
    if (target === settingsPath) renameSync(backupPath, settingsPath);
    else writeAtomic(target, backup, statSync(backupPath).mode & 0o777);
    restored = true;
  } else if (backup === null && Object.keys(result).length === 0) {
    rmSync(settingsPath);
  } else {
    writeAtomic(writeTarget(settingsPath), toJson(result), current.mode);
  }
  rmSync(backupPath, { force: true });
  return { path: settingsPath, removed, restored };
}

/**
 * Settings without empty events or an empty `hooks`, which mean nothing to Claude Code: the
 * removal drops those it emptied, so a backup holding `"hooks": {}` still matches.
 */
function withoutEmptyEvents(settings: Record<string, unknown>): Record<string, unknown> {
  const { hooks } = settings;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return settings;
  const events = Object.entries(hooks).filter(
    ([, groups]) => !Array.isArray(groups) || groups.length > 0,
  );
  const rest = { ...settings };
  delete rest.hooks;
  return events.length === 0 ? rest : { ...settings, hooks: Object.fromEntries(events) };
}

/** The backup as uninstall compares it; a backup that no longer parses matches nothing. */
function parseBackup(bytes: Buffer): unknown {
  try {
    const settings: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof settings === 'object' && settings !== null && !Array.isArray(settings)
      ? withoutEmptyEvents(settings as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** What `hooks status` reports for one settings file. */
export function readHookStatus(settingsPath: string): {
  path: string;
  exists: boolean;
  events: string[];
  url: string | null;
} {
  const current = readSettings(settingsPath);
  if (current === null) return { path: settingsPath, exists: false, events: [], url: null };
  return { path: settingsPath, exists: true, ...hubHooksIn(current.settings) };
}

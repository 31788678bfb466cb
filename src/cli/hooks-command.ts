import { existsSync } from 'node:fs';
import {
  readHookStatus,
  settingsPathFor,
  uninstallHooks,
  type InstallScope,
} from '../hooks/settings-install.js';
import { claudeConfigDir } from '../sessions/transcript.js';
import type { HubClient } from './client.js';
import type { Values } from './command.js';
import { ExitCode, UsageError, type Env, type Io } from './command-io.js';
import { healthUrlOf, hubAnswers } from './hub-probe.js';
import { InstallHooksMutation } from './operations.js';

function scopeOf(value: Values[string]): InstallScope {
  if (value === undefined || value === 'user') return 'user';
  if (value === 'project') return 'project';
  throw new UsageError(`--scope must be user or project, got ${JSON.stringify(value)}`);
}

/**
 * The settings file of a scope as this command sees it: the user's in its own Claude config
 * dir, or the current directory's project settings. uninstall and status need no hub.
 */
function localSettingsPath(scope: InstallScope, env: Env): string {
  return settingsPathFor(scope, scope === 'user' ? claudeConfigDir(env) : process.cwd());
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** install|uninstall|status of the global hooks; install goes through the hub, the rest are local. */
const hookActions: Record<
  string,
  (client: HubClient, scope: InstallScope, io: Io, env: Env) => Promise<number>
> = {
  async install(client, scope, io, env) {
    // The same file uninstall and status read here, whatever config dir the hub has.
    const dir = scope === 'user' ? claudeConfigDir(env) : process.cwd();
    const { installHooks: found } = await client.request(InstallHooksMutation, {
      scope: scope === 'user' ? 'USER' : 'PROJECT',
      dir,
    });
    io.out(
      `installed ${plural(found.events.length, 'event')} in ${found.path}; they post to ${found.url ?? '?'}`,
    );
    if (found.backupPath) io.out(`the file as it was is kept in ${found.backupPath}`);
    return ExitCode.Ok;
  },
  async uninstall(_client, scope, io, env) {
    const { path, removed, restored } = uninstallHooks(localSettingsPath(scope, env));
    if (removed === 0) {
      io.out(`no hub hooks in ${path}`);
      return ExitCode.Ok;
    }
    const after = restored
      ? 'restored it byte for byte'
      : existsSync(path)
        ? 'kept the rest: it changed since the install, so not byte for byte'
        : 'deleted it: the install had made it';
    io.out(`removed ${plural(removed, 'hub hook')} from ${path}; ${after}`);
    return ExitCode.Ok;
  },
  async status(_client, scope, io, env) {
    const found = readHookStatus(localSettingsPath(scope, env));
    if (found.events.length === 0) {
      io.out(`${found.path}: no hub hooks${found.exists ? '' : ' (no such file)'}`);
      return ExitCode.Failed;
    }
    io.out(`${found.path}: ${plural(found.events.length, 'event')} post to ${found.url ?? '?'}`);
    const healthUrl = healthUrlOf(found.url);
    const answers = healthUrl !== null && (await hubAnswers(healthUrl));
    io.out(
      `the hub at ${healthUrl?.origin ?? 'that address'} ${answers ? 'answers' : 'does not answer'}`,
    );
    return answers ? ExitCode.Ok : ExitCode.Failed;
  },
};

/** `hooks <action> [--scope]`: runs the action; a UsageError for an unknown action or scope. */
export function runHooksAction(
  client: HubClient,
  action: string,
  scopeValue: Values[string],
  io: Io,
  env: Env,
): Promise<number> {
  const scope = scopeOf(scopeValue);
  const run = Object.hasOwn(hookActions, action) ? hookActions[action] : undefined;
  if (!run) {
    throw new UsageError(
      `unknown hooks action ${JSON.stringify(action)}: expected install, uninstall or status`,
    );
  }
  return run(client, scope, io, env);
}

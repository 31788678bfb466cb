import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  installHooks,
  readHookStatus,
  settingsPathFor,
  uninstallHooks,
} from '../../src/hooks/settings-install.js';
import { claudeConfigDir } from '../../src/sessions/transcript.js';
import {
  countHubHooks,
  hubHooksIn,
  isHubHook,
  mergeHubHooks,
  removeHubHooks,
} from '../../src/hooks/settings-merge.js';
import { hubCommandMark, hubHeader, type HookGroups } from '../../src/sessions/hook-marks.js';

// Every file the installer opens for writing and renames into place, with its mode then, so a
// test can tell that no moment of the install left the settings more readable than before.
const writes = vi.hoisted(() => ({
  opened: [] as { file: string; mode: number | undefined }[],
  renamed: [] as { from: string; to: string; mode: number }[],
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    openSync: (file: string, flags: string, mode?: number) => {
      writes.opened.push({ file, mode });
      return fs.openSync(file, flags, mode);
    },
    renameSync: (from: string, to: string) => {
      writes.renamed.push({ from, to, mode: fs.statSync(from).mode & 0o777 });
      fs.renameSync(from, to);
    },
  };
});

const hubGroups = (url: string): HookGroups => {
  const http = { type: 'http', url, timeout: 10, headers: { [hubHeader]: 'global' } };
  return {
    SessionStart: [
      {
        matcher: '',
        hooks: [
          { type: 'command', command: `'/hub/forward.sh' '${url}'${hubCommandMark}`, timeout: 5 },
        ],
      },
    ],
    PreToolUse: [{ matcher: '', hooks: [http] }],
    Stop: [{ matcher: '', hooks: [http] }],
  };
};

const userHook = { type: 'command', command: 'echo mine' };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cch-hook-install-'));
  writes.opened.length = 0;
  writes.renamed.length = 0;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('mergeHubHooks / removeHubHooks', () => {
  it('recognises hub hooks only by their markers', () => {
    expect(isHubHook({ type: 'http', url: 'x', headers: { [hubHeader]: 'global' } })).toBe(true);
    expect(isHubHook({ type: 'command', command: `run${hubCommandMark}` })).toBe(true);
    expect(isHubHook({ type: 'http', url: 'x', headers: { Authorization: 'y' } })).toBe(false);
    expect(isHubHook({ type: 'command', command: 'claude-code-hub serve' })).toBe(false);
    expect(isHubHook(null)).toBe(false);
  });

  it('strips hub hooks from a group it shares with the user and appends its own groups', () => {
    const settings = {
      hooks: {
        Stop: [
          { matcher: '', hooks: [userHook, ...hubGroups('http://old/hooks').Stop![0]!.hooks] },
        ],
      },
    };
    const merged = mergeHubHooks(settings, hubGroups('http://new/hooks'));
    expect(merged).toEqual({
      hooks: {
        Stop: [{ matcher: '', hooks: [userHook] }, ...hubGroups('http://new/hooks').Stop!],
        SessionStart: hubGroups('http://new/hooks').SessionStart,
        PreToolUse: hubGroups('http://new/hooks').PreToolUse,
      },
    });
    expect(settings.hooks.Stop[0]!.hooks).toHaveLength(2);
    expect(removeHubHooks(merged)).toEqual({
      hooks: { Stop: [{ matcher: '', hooks: [userHook] }] },
    });
  });

  it('drops only what the removal emptied', () => {
    const untouched = { hooks: { SubagentStop: [], Notification: [{ matcher: 'x', hooks: [] }] } };
    expect(removeHubHooks(mergeHubHooks(untouched, hubGroups('u')))).toEqual(untouched);
    expect(removeHubHooks(mergeHubHooks({ model: 'opus' }, hubGroups('u')))).toEqual({
      model: 'opus',
    });
    expect(removeHubHooks({ hooks: {} })).toEqual({ hooks: {} });
    expect(removeHubHooks(mergeHubHooks({ hooks: { Stop: [] } }, hubGroups('u')))).toEqual({});
  });

  it('reports events, URL and count, and rejects malformed hooks naming the value', () => {
    const merged = mergeHubHooks({}, hubGroups('http://h/hooks'));
    expect(hubHooksIn(merged)).toEqual({
      events: ['PreToolUse', 'SessionStart', 'Stop'],
      url: 'http://h/hooks',
    });
    expect(countHubHooks(merged)).toBe(3);
    expect(() => hubHooksIn({ hooks: [1] })).toThrow(
      'settings "hooks" must be an object of events, got [1] (array)',
    );
    expect(() => removeHubHooks({ hooks: { Stop: 'x' } })).toThrow(
      'settings "hooks.Stop" must be an array of matcher groups, got "x" (string)',
    );
    expect(() => mergeHubHooks({}, { Stop: [{ matcher: '', hooks: [userHook] }] })).toThrow(
      `hook for Stop lacks the hub's marker: {"type":"command","command":"echo mine"} (object)`,
    );
  });
});

describe('installHooks / uninstallHooks', () => {
  it('keeps the user hooks and other keys, in their order, and appends the hub groups', () => {
    const file = path.join(dir, 'settings.json');
    const user = {
      model: 'opus',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }] },
      permissions: { allow: ['Read'] },
    };
    writeFileSync(file, JSON.stringify(user));
    const result = installHooks(file, hubGroups('http://127.0.0.1:4000/hooks'));
    expect(result).toEqual({
      path: file,
      backupPath: `${file}.claude-code-hub.bak`,
      events: 3,
      changed: true,
    });
    const written = readFileSync(file, 'utf8');
    expect(written.endsWith('}\n')).toBe(true);
    expect(written).toContain('\n  "model": "opus",\n');
    const settings = JSON.parse(written) as Record<string, unknown>;
    expect(Object.keys(settings)).toEqual(['model', 'hooks', 'permissions']);
    expect(settings).toEqual({
      model: 'opus',
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [userHook] },
          ...hubGroups('http://127.0.0.1:4000/hooks').PreToolUse!,
        ],
        SessionStart: hubGroups('http://127.0.0.1:4000/hooks').SessionStart,
        Stop: hubGroups('http://127.0.0.1:4000/hooks').Stop,
      },
      permissions: { allow: ['Read'] },
    });
    expect(readFileSync(`${file}.claude-code-hub.bak`, 'utf8')).toBe(JSON.stringify(user));
  });

  it('is idempotent, and a reinstall with a new URL replaces the old without touching the backup', () => {
    const file = path.join(dir, 'settings.json');
    const original = '{"model":"opus"}';
    writeFileSync(file, original);
    installHooks(file, hubGroups('http://old/hooks'));
    const first = readFileSync(file);
    const renames = writes.renamed.length;
    expect(installHooks(file, hubGroups('http://old/hooks'))).toMatchObject({
      changed: false,
      events: 3,
    });
    expect(readFileSync(file).equals(first)).toBe(true);
    expect(writes.renamed).toHaveLength(renames);

    expect(installHooks(file, hubGroups('http://new/hooks')).changed).toBe(true);
    const settings = readJson(file) as { hooks: Record<string, { hooks: { url?: string }[] }[]> };
    expect(settings.hooks.Stop).toEqual(hubGroups('http://new/hooks').Stop);
    expect(countHubHooks(settings)).toBe(3);
    expect(readFileSync(`${file}.claude-code-hub.bak`, 'utf8')).toBe(original);
    expect(uninstallHooks(file)).toEqual({ path: file, removed: 3, restored: true });
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('restores an oddly formatted file byte for byte, never loosening its mode', () => {
    const file = path.join(dir, 'settings.json');
    const original = '{\t"permissions" : {"allow":["Read"]},\n\t"model":"opus",\n"hooks":{}}';
    writeFileSync(file, original);
    chmodSync(file, 0o640);
    installHooks(file, hubGroups('http://h/hooks'));
    expect(modeOf(file)).toBe(0o640);
    expect(modeOf(`${file}.claude-code-hub.bak`)).toBe(0o640);
    expect(writes.opened.map((open) => open.mode)).toEqual([0o640, 0o640]);
    expect(writes.renamed.map((rename) => [path.basename(rename.to), rename.mode])).toEqual([
      ['settings.json.claude-code-hub.bak', 0o640],
      ['settings.json', 0o640],
    ]);

    expect(uninstallHooks(file)).toEqual({ path: file, removed: 3, restored: true });
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(modeOf(file)).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('deletes on uninstall a file the install created, in a directory it created', () => {
    const file = path.join(dir, 'config', 'settings.json');
    expect(installHooks(file, hubGroups('http://h/hooks'))).toEqual({
      path: file,
      backupPath: null,
      events: 3,
      changed: true,
    });
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    expect(hubHooksIn(readJson(file) as Record<string, unknown>).url).toBe('http://h/hooks');
    expect(uninstallHooks(file)).toEqual({ path: file, removed: 3, restored: false });
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });

  it('keeps an edit the user made after install and removes only the hub hooks', () => {
    const file = path.join(dir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({ model: 'opus', hooks: { Stop: [{ matcher: '', hooks: [userHook] }] } }),
    );
    chmodSync(file, 0o640);
    installHooks(file, hubGroups('http://h/hooks'));
    const installed = readJson(file) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...installed, model: 'sonnet' }));

    expect(uninstallHooks(file)).toEqual({ path: file, removed: 3, restored: false });
    expect(readFileSync(file, 'utf8')).toBe(
      `${JSON.stringify({ model: 'sonnet', hooks: { Stop: [{ matcher: '', hooks: [userHook] }] } }, null, 2)}\n`,
    );
    expect(modeOf(file)).toBe(0o640);
    expect(existsSync(`${file}.claude-code-hub.bak`)).toBe(false);
  });

  it('writes through a symlinked settings file, keeping the link', () => {
    const target = path.join(dir, 'dotfiles-settings.json');
    const file = path.join(dir, 'settings.json');
    writeFileSync(target, '{"model":"opus"}');
    symlinkSync(target, file);
    installHooks(file, hubGroups('http://h/hooks'));
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readHookStatus(file).url).toBe('http://h/hooks');
    expect(uninstallHooks(file)).toMatchObject({ removed: 3, restored: true });
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{"model":"opus"}');
    expect(readdirSync(dir).sort()).toEqual(['dotfiles-settings.json', 'settings.json']);
  });

  it('writes nothing on uninstall when the file holds no hub hook', () => {
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{"model":"opus"}');
    expect(uninstallHooks(file)).toEqual({ path: file, removed: 0, restored: false });
    expect(uninstallHooks(path.join(dir, 'absent.json'))).toMatchObject({ removed: 0 });
    expect(writes.renamed).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('{"model":"opus"}');
  });

  it('refuses invalid JSON, a non-object or malformed hooks, naming the file and writing nothing', () => {
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{"model": "opus",}');
    expect(() => installHooks(file, hubGroups('http://h/hooks'))).toThrow(
      new RegExp(`^${file.replaceAll('.', '\\.')} is not valid JSON: .*at position 17`),
    );
    expect(readFileSync(file, 'utf8')).toBe('{"model": "opus",}');
    expect(readdirSync(dir)).toEqual(['settings.json']);

    writeFileSync(file, '[]');
    expect(() => installHooks(file, {})).toThrow(`${file} must hold a JSON object, got []`);
    writeFileSync(file, '{"hooks":{"Stop":{}}}');
    expect(() => uninstallHooks(file)).toThrow(
      `${file}: settings "hooks.Stop" must be an array of matcher groups, got {} (object)`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"hooks":{"Stop":{}}}');
    expect(writes.renamed).toEqual([]);
  });
});

describe('settings paths and status', () => {
  it('puts user settings in the config dir and project settings in .claude/settings.local.json', () => {
    expect(settingsPathFor('user', '/cfg')).toBe('/cfg/settings.json');
    expect(settingsPathFor('project', '/repo')).toBe('/repo/.claude/settings.local.json');
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/cfg' })).toBe('/cfg');
    expect(claudeConfigDir({})).toBe(path.join(homedir(), '.claude'));

    const file = settingsPathFor('project', dir);
    installHooks(file, hubGroups('http://h/hooks'));
    expect(readdirSync(path.join(dir, '.claude'))).toEqual(['settings.local.json']);
    expect(modeOf(path.join(dir, '.claude'))).toBe(0o700);
  });

  it('lists the events holding hub hooks and their URL', () => {
    const file = path.join(dir, 'settings.json');
    expect(readHookStatus(file)).toEqual({ path: file, exists: false, events: [], url: null });
    writeFileSync(
      file,
      JSON.stringify({ hooks: { Notification: [{ matcher: '', hooks: [userHook] }] } }),
    );
    expect(readHookStatus(file)).toEqual({ path: file, exists: true, events: [], url: null });
    installHooks(file, hubGroups('http://127.0.0.1:4000/hooks'));
    expect(readHookStatus(file)).toEqual({
      path: file,
      exists: true,
      events: ['PreToolUse', 'SessionStart', 'Stop'],
      url: 'http://127.0.0.1:4000/hooks',
    });
  });
});

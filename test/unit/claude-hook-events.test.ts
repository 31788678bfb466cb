import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { scanForEventArrays } from '../../src/claude/binary-event-scan.js';
import { ClaudeCli } from '../../src/claude/claude-cli.js';
import {
  parseValidEvents,
  pickEventArray,
  probeEventName,
  registryHookEvents,
  supportedHookEvents,
} from '../../src/claude/hook-event-support.js';
import { hookEventNames } from '../../src/events/registry.js';
import { createLogger } from '../../src/log.js';
import { hookSettings } from '../../src/sessions/hook-settings.js';

const leftovers: string[] = [];
afterAll(() => {
  for (const dir of leftovers) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cch-claude-cli-'));
  leftovers.push(dir);
  return dir;
};

/** A newer CLI's list: the registry's events and one the registry does not know. */
const futureList = [...hookEventNames, 'FutureEvent'];
/** claude's debug-log line about the probe's event (2.1.332's words). */
const debugLine = (names: readonly string[]) =>
  `2026-11-26T07:45:35.198Z [ERROR] Invalid setting skipped without dialog (automated session): --settings (inline JSON): hooks.${probeEventName}: Unknown hook event "${probeEventName}" was ignored. Valid events: ${names.join(', ')}`;

describe("parsing claude's list of hook events", () => {
  it('reads the list claude logs about an unknown event, whole lines only', () => {
    const log = ['[DEBUG] starting', debugLine(futureList), '[DEBUG] done'].join('\n');
    expect(parseValidEvents(log)).toEqual(futureList);
    // The terminal's copy of the warning is cut at about 600 characters, mid-list.
    const cut = `  --settings (inline JSON) (hooks.x): Unknown hook event "x" was ignored. Valid events: ${hookEventNames.slice(0, 30).join(', ')},\n`;
    expect(parseValidEvents(cut)).toBeNull();
    expect(parseValidEvents(`${cut}${debugLine(hookEventNames)}`)).toEqual(hookEventNames);
    // Inside a JSON string, as a stream-json line would carry it.
    expect(parseValidEvents(JSON.stringify({ message: debugLine(futureList) }))).toEqual(
      futureList,
    );
    expect(parseValidEvents('Valid events: Foo, Bar')).toBeNull(); // no PreToolUse, Stop...
    expect(parseValidEvents('Valid events: PreToolUse, PreToolUse, Stop')).toBeNull();
    expect(parseValidEvents('')).toBeNull();
  });

  it('takes the longest whole array of the binary, not its subsets', () => {
    const texts = [
      JSON.stringify(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit']),
      JSON.stringify(futureList),
      JSON.stringify(['PreToolUse', 'PostToolUse', 'SessionStart', 'Stop', 'Setup']),
      '["PreToolUse","PostToolUse",e,"Stop"]', // not JSON: code, not a list
      JSON.stringify(['PreToolUse', 'PostToolUse', 'SessionStart', 'Stop', 'not an event']),
    ];
    expect(pickEventArray(texts)).toEqual(futureList);
    expect(pickEventArray(texts.slice(0, 1))).toBeNull();
    expect(pickEventArray([])).toBeNull();
  });

  it('types the events the registry knows and gives an unknown one an HTTP hook', () => {
    const events = supportedHookEvents(['PreToolUse', 'SessionStart', 'FutureEvent', 'Setup']);
    expect(events).toEqual([
      { name: 'PreToolUse', typed: true, http: true },
      { name: 'SessionStart', typed: true, http: false },
      { name: 'FutureEvent', typed: false, http: true },
      { name: 'Setup', typed: true, http: false },
    ]);
    expect(registryHookEvents.map((event) => event.name)).toEqual(hookEventNames);
    expect(registryHookEvents.every((event) => event.typed)).toBe(true);
  });
});

describe('the settings of a session', () => {
  const options = {
    hookUrl: 'http://127.0.0.1:1/hooks',
    forwarderPath: '/hub/forward.sh',
    httpTimeoutSeconds: 7,
    permissionTimeoutSeconds: 99,
  };

  it('register every event the claude supports, and no other', () => {
    const { hooks } = hookSettings({ ...options, events: supportedHookEvents(futureList) });
    expect(Object.keys(hooks)).toEqual(futureList);
    expect(hooks.FutureEvent).toEqual([
      {
        matcher: '',
        hooks: [
          {
            type: 'http',
            url: 'http://127.0.0.1:1/hooks',
            timeout: 7,
            headers: { Authorization: 'Bearer $CLAUDE_HUB_HOOK_SECRET' },
            allowedEnvVars: ['CLAUDE_HUB_HOOK_SECRET'],
          },
        ],
      },
    ]);
    expect(hooks.SessionStart?.[0]?.hooks[0]).toMatchObject({ type: 'command' });
    expect(hooks.PermissionRequest?.[0]?.hooks[0]).toMatchObject({ type: 'http', timeout: 99 });

    // An older claude that lacks events the registry knows is not given them (it would warn).
    const older = hookEventNames.filter((name) => name !== 'MessageDisplay');
    expect(
      Object.keys(hookSettings({ ...options, events: supportedHookEvents(older) }).hooks),
    ).toEqual(older);
    expect(Object.keys(hookSettings(options).hooks)).toEqual(hookEventNames);
  });
});

describe('reading the event list out of a binary', () => {
  const scan = { chunkBytes: 7, maxArrayBytes: 4096, maxArrays: 64 };

  it('finds every array, across chunk boundaries, in a worker', async () => {
    const file = path.join(tempDir(), 'claude.exe');
    const list = JSON.stringify(futureList);
    const subset = JSON.stringify(['PreToolUse', 'PostToolUse', 'Stop']);
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from([0, 1, 2, 0xff]),
        Buffer.from(`var a=${subset};var gc=${list},b=["PreToolUse","PostToolUse"`),
        Buffer.alloc(5000, 0x20), // an array that never closes within bounds
        Buffer.from(`];x=${list}`),
      ]),
    );
    for (const chunkBytes of [7, 64, 1024 * 1024]) {
      const found = await scanForEventArrays(file, { ...scan, chunkBytes });
      expect(found, `chunks of ${chunkBytes}`).toEqual([subset, list, list]);
      expect(pickEventArray(found)).toEqual(futureList);
    }
    expect(await scanForEventArrays(file, { ...scan, maxArrays: 2 })).toEqual([subset, list]);
  });

  it('rejects for a missing file and when stopped', async () => {
    await expect(scanForEventArrays('/no/such/claude', scan)).rejects.toThrow(/could not be read/);
    const file = path.join(tempDir(), 'big');
    writeFileSync(file, Buffer.alloc(4 * 1024 * 1024));
    const abort = new AbortController();
    const scanning = scanForEventArrays(file, { ...scan, chunkBytes: 16, signal: abort.signal });
    abort.abort();
    await expect(scanning).rejects.toThrow('stopped');
  });
});

/**
 * A stand-in claude (a shell script) for the unit tests: prints the version in the file
 * `version` (a wrapper's target could change behind it), answers the probe
 * by writing `probe` to its --debug-file (or fails), holds `embedded` in its own text (as the
 * binary holds its list), and appends each command line to `calls`.
 */
function fakeClaude(options: {
  version: string;
  probe: readonly string[] | null;
  embedded?: readonly string[];
}): { bin: string; version: string; calls: () => string[] } {
  const dir = tempDir();
  const bin = path.join(dir, 'claude');
  const calls = path.join(dir, 'calls');
  const version = path.join(dir, 'version');
  writeFileSync(calls, '');
  writeFileSync(version, `${options.version} (Claude Code)\n`);
  writeFileSync(
    bin,
    [
      '#!/bin/sh',
      `echo "$*" >> '${calls}'`,
      `[ "$1" = --version ] && { cat '${version}'; exit 0; }`,
      options.probe
        ? `while [ $# -gt 0 ]; do [ "$1" = --debug-file ] && { echo '${debugLine(options.probe)}' > "$2"; exit 0; }; shift; done`
        : 'echo "error: unknown option --bare" >&2',
      'exit 1',
      `: '${JSON.stringify(options.embedded ?? [])}'`,
      '',
    ].join('\n'),
  );
  chmodSync(bin, 0o755);
  return {
    bin,
    version,
    calls: () => readFileSync(calls, 'utf8').split('\n').filter(Boolean),
  };
}

function cliOf(dataDir: string) {
  const lines: string[] = [];
  const cli = new ClaudeCli({
    dataDir,
    env: process.env,
    probeTimeoutMs: 10_000,
    scan: { chunkBytes: 64 * 1024, maxArrayBytes: 16 * 1024, maxArrays: 64 },
    log: createLogger('info', { write: (line: string) => void lines.push(line) }),
  });
  const logged = () =>
    lines.map(
      (line) => JSON.parse(line) as { level: string; msg: string } & Record<string, unknown>,
    );
  return { cli, logged };
}

describe('learning what a claude supports', () => {
  it('asks claude, types what the registry knows, and logs one line', async () => {
    const fake = fakeClaude({ version: '2.1.330', probe: futureList });
    const { cli, logged } = cliOf(tempDir());
    const facts = await cli.facts(fake.bin);
    expect(facts).toMatchObject({
      bin: fake.bin,
      version: '2.1.330',
      standing: 'tested',
      hookEventSource: 'cli',
      problem: null,
    });
    expect(facts.hookEvents.map((event) => event.name)).toEqual(futureList);
    expect(facts.hookEvents.at(-1)).toEqual({ name: 'FutureEvent', typed: false, http: true });
    expect(await cli.hookEvents(fake.bin)).toBe(facts.hookEvents); // learned once
    expect(fake.calls()).toEqual([
      '--version',
      expect.stringMatching(/^--bare -p --input-format stream-json .*--debug-file \S+ --settings/),
    ]);
    expect(logged()).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'claude CLI',
        version: '2.1.330',
        tested: expect.stringMatching(/^2\.1\.\d+ to 2\.1\.\d+$/),
        hookEvents: futureList.length,
        hookEventsFrom: 'cli',
        untyped: ['FutureEvent'],
      }),
    ]);
    await cli.close();
  });

  it('reads the binary when claude lists nothing, and caches what it read in the data dir', async () => {
    const fake = fakeClaude({ version: '2.1.331', probe: null, embedded: futureList });
    const dataDir = tempDir();
    const first = cliOf(dataDir);
    const facts = await first.cli.facts(fake.bin);
    expect(facts.hookEventSource).toBe('binary');
    expect(facts.hookEvents.map((event) => event.name)).toEqual(futureList);
    expect(first.logged().map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'claude listed no hook events: they were read from its binary'],
      ['info', 'claude CLI'],
    ]);
    await first.cli.close();
    expect(fake.calls()).toHaveLength(2);

    // A restart on the same data dir asks only the version of the same binary.
    const second = cliOf(dataDir);
    expect((await second.cli.facts(fake.bin)).hookEvents).toEqual(facts.hookEvents);
    expect(fake.calls().slice(2)).toEqual(['--version']);
    await second.cli.close();
    const cache = JSON.parse(readFileSync(path.join(dataDir, 'claude-hook-events.json'), 'utf8'));
    expect(Object.values(cache)).toEqual([
      { names: futureList, source: 'binary', at: expect.any(Number) },
    ]);

    // Another version behind the same file (a wrapper script's target changed) is asked again.
    writeFileSync(fake.version, '2.1.332 (Claude Code)\n');
    const third = cliOf(dataDir);
    expect((await third.cli.facts(fake.bin)).version).toBe('2.1.332');
    expect(fake.calls().slice(3)).toEqual(['--version', expect.stringMatching(/^--bare -p/)]);
    await third.cli.close();
  });

  it("falls back to the registry's events with a warning, and says when a version is outside the tested range", async () => {
    const fake = fakeClaude({ version: '2.1.900', probe: null });
    const { cli, logged } = cliOf(tempDir());
    const facts = await cli.facts(fake.bin);
    expect(facts).toMatchObject({
      version: '2.1.900',
      standing: 'newer',
      hookEventSource: 'registry',
    });
    expect(facts.hookEvents).toEqual(registryHookEvents);
    expect(facts.problem).toMatch(
      /^asking claude: claude listed no hook events \(exited 1\).*; reading .*: no list of hook events in it$/,
    );
    expect(logged().map((line) => [line.level, line.msg])).toEqual([
      ['info', 'claude CLI'],
      [
        'warn',
        expect.stringMatching(
          /^claude 2\.1\.900 is newer than the versions tested \(2\.1\.\d+ to 2\.1\.\d+\)$/,
        ),
      ],
      [
        'warn',
        `the hook events of claude could not be learned: its sessions register the registry's ${hookEventNames.length}`,
      ],
    ]);
    await cli.close();
  });

  it('stops a claude that hangs when the hub stops, and starts none after', async () => {
    const fake = fakeClaude({ version: '2.1.332', probe: null });
    // Its probe never ends: only close() ends it.
    writeFileSync(
      fake.bin,
      readFileSync(fake.bin, 'utf8').replace(
        'echo "error: unknown option --bare" >&2',
        'exec sleep 60',
      ),
    );
    const { cli, logged } = cliOf(tempDir());
    const learning = cli.facts(fake.bin);
    await vi.waitFor(() => expect(fake.calls()).toHaveLength(2));
    const started = Date.now();
    await cli.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await learning).hookEventSource).toBe('registry');
    expect(await cli.facts('/bin/sh')).toMatchObject({ problem: 'the hub is stopping' });
    expect(logged()).toEqual([]);
  });

  it('says a claude that does not run is unknown, and learns nothing from it', async () => {
    const { cli, logged } = cliOf(tempDir());
    const facts = await cli.facts('/no/such/claude');
    expect(facts).toMatchObject({
      version: null,
      standing: 'unknown',
      hookEventSource: 'registry',
      problem: expect.stringMatching(/^claude did not run: .*ENOENT/),
    });
    expect(logged().map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'claude did not run'],
    ]);
    await cli.close();
  });
});

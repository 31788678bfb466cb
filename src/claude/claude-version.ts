import { execa } from 'execa';

/**
 * The claude CLI versions the hub's whole end-to-end suite has passed on (see
 * `scripts/test-on-cli.sh`), oldest first. Others may work; the hub says when one is outside.
 */
export const testedClaudeVersions = { oldest: '2.1.328', newest: '2.1.332' } as const;

/** `2.1.332` from `claude --version`'s `2.1.332 (Claude Code)`; null when it prints no version. */
export function parseClaudeVersion(output: string): string | null {
  return /(\d+\.\d+\.\d+)/.exec(output)?.[1] ?? null;
}

/** -1, 0 or 1 as a is older than, the same as or newer than b (numeric x.y.z). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    const diff = (x![i] ?? 0) - (y![i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** A claude version against the range the suite has passed on. */
export type VersionStanding = 'tested' | 'older' | 'newer';

/** Where a version stands against the tested range. */
export function versionStanding(version: string): VersionStanding {
  if (compareVersions(version, testedClaudeVersions.oldest) < 0) return 'older';
  if (compareVersions(version, testedClaudeVersions.newest) > 0) return 'newer';
  return 'tested';
}

/** The version of the claude at `bin` (a path or a name on PATH); throws when it does not run. */
export async function claudeVersion(
  bin: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  signal?: AbortSignal,
): Promise<string> {
  const { stdout } = await execa(bin, ['--version'], {
    env,
    timeout: 15_000,
    stdin: 'ignore',
    ...(signal && { cancelSignal: signal }),
  });
  const version = parseClaudeVersion(stdout);
  if (version === null)
    throw new Error(`${bin} --version printed no version: ${stdout.slice(0, 200)}`);
  return version;
}

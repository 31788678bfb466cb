import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** One token of a tokens file: its name, scope and secret (the file keeps the secret's hash). */
export interface TestToken {
  readonly name: string;
  readonly scope: string;
  readonly secret: string;
}

/** Writes `tokens.json` in `dir`, as `--tokens-file` reads it; returns its path. */
export function writeTokensFile(dir: string, tokens: readonly TestToken[]): string {
  const file = path.join(dir, 'tokens.json');
  writeFileSync(
    file,
    JSON.stringify(
      tokens.map(({ name, scope, secret }) => ({
        name,
        scope,
        sha256: createHash('sha256').update(secret).digest('hex'),
      })),
    ),
  );
  return file;
}

/** One token per scope, each named `<scope><suffix>`, from a scope-to-secret map. */
export function tokensByScope(secrets: Record<string, string>, suffix = '-bot'): TestToken[] {
  return Object.entries(secrets).map(([scope, secret]) => ({
    name: `${scope}${suffix}`,
    scope,
    secret,
  }));
}

import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../../codegen.js';

describe('codegen output', () => {
  it('matches the committed src/gql (run npm run codegen)', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const outputs = (await generate({ ...config, cwd: root, silent: true }, false)) as {
      filename: string;
      content: string;
    }[];
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      expect(
        readFileSync(new URL(`../../${output.filename}`, import.meta.url), 'utf8'),
        output.filename,
      ).toBe(output.content);
    }
  });
});

import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../../codegen.js';
import { documentsFromCode } from '../../scripts/doc-sections.js';

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

describe('docs written from code', () => {
  it('match the states and moves and the layers in the code (run npm run schema)', async () => {
    const root = new URL('../../', import.meta.url);
    for (const [file, text] of await documentsFromCode(root)) {
      expect(readFileSync(new URL(file, root), 'utf8'), file).toBe(text);
    }
  });
});

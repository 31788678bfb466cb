import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

interface Budget {
  readonly scope: string;
  readonly key: string;
  readonly usd: number;
  readonly spentUsd: number;
}

const args = ['--budget', 'label:nightly=20', '--budget', 'token:ci-bot=5'];

/** A hub on `dataDir` with the budgets of `args`, its global hooks in a claude config of its own. */
const start = (dataDir: string) =>
  startHub({
    env: { ...process.env, CLAUDE_CONFIG_DIR: tempDir('cch-claude-') },
    args,
    dataDir,
  });

const budgets = async (hub: TestHub) =>
  (await hub.data<{ budgets: Budget[] }>('{ budgets { scope key usd spentUsd } }')).budgets;

describe('budgets given with --budget', () => {
  it('are in force at start, win over the API at the next start, and leave other budgets be', async () => {
    const dataDir = tempDir('cch-data-');
    let hub = await start(dataDir);
    expect(await budgets(hub)).toEqual([
      { scope: 'LABEL', key: 'nightly', usd: 20, spentUsd: 0 },
      { scope: 'TOKEN', key: 'ci-bot', usd: 5, spentUsd: 0 },
    ]);
    expect(hub.logs.filter((line) => line.includes('budget set by --budget'))).toHaveLength(2);

    // The API may change it until the next start.
    await hub.data(
      'mutation { a: setBudget(scope: LABEL, key: "nightly", usd: 50) b: setBudget(scope: LABEL, key: "manual", usd: 7) }',
    );
    expect(await budgets(hub)).toEqual([
      { scope: 'LABEL', key: 'manual', usd: 7, spentUsd: 0 },
      { scope: 'LABEL', key: 'nightly', usd: 50, spentUsd: 0 },
      { scope: 'TOKEN', key: 'ci-bot', usd: 5, spentUsd: 0 },
    ]);
    await hub.stop();

    hub = await start(dataDir);
    expect(await budgets(hub)).toEqual([
      { scope: 'LABEL', key: 'manual', usd: 7, spentUsd: 0 },
      { scope: 'LABEL', key: 'nightly', usd: 20, spentUsd: 0 },
      { scope: 'TOKEN', key: 'ci-bot', usd: 5, spentUsd: 0 },
    ]);
    // Only the budget the API had changed is set again.
    const set = hub.logs.filter((line) => line.includes('budget set by --budget'));
    expect(set).toHaveLength(1);
    expect(JSON.parse(set[0]!)).toMatchObject({ scope: 'LABEL', key: 'nightly', usd: 20, was: 50 });
  });

  it('refuses a bad value before the hub starts, naming the option', () => {
    expect(parseConfig(['--budget', 'label:nightly=0'], {})).toEqual({
      ok: false,
      error:
        '--budget amount must be more than 0 and at most 1000000 US dollars, got "label:nightly=0"',
    });
    expect(parseConfig(['--budget', 'project:x=5'], {})).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^--budget scope must be label or token .*"project:x=5"$/),
    });
    expect(parseConfig([], { CLAUDE_HUB_BUDGETS: 'token:ci-bot=five' })).toEqual({
      ok: false,
      error: 'CLAUDE_HUB_BUDGETS amount must be a number of US dollars, got "token:ci-bot=five"',
    });
  });
});

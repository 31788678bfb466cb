import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { hookSession, startHookHub, type HookSession } from '../helpers/hook-session.js';
import type { TestHub } from '../helpers/hub.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const screenshot = path.join(root, 'test/output/dashboard-rules.png');

const ruleFields = `name enabled priority on decision message
  match { tools input { path pattern } cwdUnder labels runtime origin token }`;

describe("the dashboard's permission rules", () => {
  disposeWithSuite();
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let cwd: string;
  const pageErrors: string[] = [];

  /** A tool call as claude's PreToolUse hook posts it; resolves with the hub's answer. */
  const call = (session: HookSession, id: string, tool: string, input: Record<string, unknown>) =>
    session.answer('PreToolUse', { tool_name: tool, tool_input: input, tool_use_id: id });

  const createRule = (input: Record<string, unknown>) =>
    hub.data(
      `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }`,
      {
        input,
      },
    );

  /** Each listed rule as `name enabled`, top to bottom. */
  const listed = () =>
    page.$$eval('#rules li.rule', (items) =>
      items.map((item) => `${item.dataset.ruleName} ${item.dataset.enabled}`),
    );

  /** The dry run's counts as shown, by name. */
  const shownCounts = () =>
    page.$$eval('#dry-run-result .dry-run-count', (items) =>
      Object.fromEntries(
        items.map((item) => [
          item.dataset.count,
          Number(item.querySelector('strong')?.textContent),
        ]),
      ),
    );

  /** Runs the dry run over the last day and waits for a result with `calls`. */
  async function dryRun(expected: Record<string, number>): Promise<void> {
    await page.locator('#dry-run-since').selectOption({ label: 'last day' });
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(shownCounts).toEqual(expected);
  }

  beforeAll(async () => {
    await buildDashboard();
    ({ hub } = await startHookHub([]));
    cwd = tempDir('cch-dashboard-rules-');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  it('lists the rules in the order tried, switches one off, and dry-runs the enabled ones', async () => {
    // Three calls before any rule: each ran unasked.
    const session = await hookSession(hub, { cwd });
    await session.post('UserPromptSubmit', { prompt: 'push it' });
    expect(await call(session, 't1', 'Bash', { command: 'git push origin main' })).toEqual({});
    expect(await call(session, 't2', 'Bash', { command: 'ls -la' })).toEqual({});
    expect(await call(session, 't3', 'Read', { file_path: path.join(cwd, 'README.md') })).toEqual(
      {},
    );
    // Made in this order; the higher priority is tried first.
    await createRule({ name: 'reads', decision: 'ALLOW', match: { tools: ['Read'] } });
    await createRule({
      name: 'no pushes',
      decision: 'DENY',
      priority: 10,
      message: 'pushing is for people',
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'git push*' }] },
    });

    await page.goto(hub.baseUrl);
    await expect.poll(listed).toEqual(['no pushes true', 'reads true']);
    const push = page.locator('#rules li.rule[data-rule-name="no pushes"]');
    expect(await push.locator('.rule-head').innerText()).toMatch(
      /^1\.\s+no pushes\s+DENY\s+on tool call\s+priority 10\s+on$/,
    );
    expect(await push.locator('.rule-match').textContent()).toBe(
      'tools=Bash input=command:git push*',
    );
    expect(await push.locator('.rule-message').textContent()).toBe('pushing is for people');
    expect(await push.locator('.rule-source').textContent()).toBe('API, by local');
    expect(
      await page.locator('#rules li.rule[data-rule-name="reads"] .rule-match').textContent(),
    ).toBe('tools=Read');

    // Both rules: the push would now be refused; ls matches neither and ran unasked as before.
    await dryRun({ calls: 3, allowed: 2, denied: 1, asked: 0, changed: 1 });
    const changed = page.locator('#dry-run-result li.changed');
    expect(await changed.count()).toBe(1);
    expect(await changed.locator('.tool-input').textContent()).toBe('git push origin main');
    expect(await changed.locator('.dry-run-outcome').textContent()).toBe(
      'ALLOW -> DENY by rule no pushes',
    );
    expect(await changed.locator('.explanation').textContent()).toMatch(/tool Bash matched "Bash"/);
    expect(await changed.getByRole('button').textContent()).toBe(session.id.slice(0, 8));
    // What the page shows is what the API answers for the same rules and period.
    const { policyDryRun } = await hub.data(
      `query($rules: [PermissionRuleInput!]!, $since: DateTime) {
        policyDryRun(rules: $rules, since: $since) { calls allowed denied asked changed }
      }`,
      {
        rules: (await hub.data(`{ permissionRules { ${ruleFields} } }`)).permissionRules,
        since: new Date(Date.now() - 86_400_000).toISOString(),
      },
    );
    expect(policyDryRun).toEqual({ calls: 3, allowed: 2, denied: 1, asked: 0, changed: 1 });

    // Switched off, it goes last, and the hub has it disabled.
    await page.getByRole('switch', { name: 'no pushes enabled' }).click();
    await expect.poll(listed).toEqual(['reads true', 'no pushes false']);
    expect(
      await page.locator('#rules li.rule[data-rule-name="no pushes"] .rule-place').textContent(),
    ).toBe('-');
    expect((await hub.data('{ permissionRules { name enabled } }')).permissionRules).toEqual([
      { name: 'reads', enabled: true },
      { name: 'no pushes', enabled: false },
    ]);
    await expect.poll(() => page.locator('#notice').textContent()).toBe('Rule no pushes disabled.');
    // Only the enabled rule is tried now: nothing would change.
    await dryRun({ calls: 3, allowed: 3, denied: 0, asked: 0, changed: 0 });
    expect(await page.locator('#dry-run-result li.changed').count()).toBe(0);

    await page.getByRole('switch', { name: 'no pushes enabled' }).click();
    await expect.poll(listed).toEqual(['no pushes true', 'reads true']);
    // A rule made elsewhere (another client, another node) shows without a reload.
    await createRule({
      name: 'web asks',
      decision: 'ASK',
      priority: 5,
      match: { tools: ['WebFetch'] },
    });
    await expect.poll(listed).toEqual(['no pushes true', 'web asks true', 'reads true']);
    const webAsks = (await hub.data('{ permissionRules { id name } }')).permissionRules.find(
      (rule: { name: string }) => rule.name === 'web asks',
    );
    await hub.data('mutation($id: ID!) { deletePermissionRule(id: $id) }', { id: webAsks.id });
    await expect.poll(listed).toEqual(['no pushes true', 'reads true']);
    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("shows in a session's timeline who decided a call, and a stop a rule refused", async () => {
    await createRule({
      name: 'tests first',
      on: 'STOP',
      decision: 'DENY',
      message: 'run the tests before you stop',
    });
    await expect.poll(listed).toEqual(['no pushes true', 'tests first true', 'reads true']);
    expect(
      await page.locator('#rules li.rule[data-rule-name="tests first"] .rule-head').innerText(),
    ).toMatch(/^2\.\s+tests first\s+DENY\s+on stop\s+priority 0\s+on$/);

    const session = await hookSession(hub, { cwd });
    await session.post('UserPromptSubmit', { prompt: 'push it' });
    expect(await call(session, 't4', 'Bash', { command: 'git push --force' })).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
    expect(
      await session.answer('Stop', { stop_hook_active: false, last_assistant_message: 'done' }),
    ).toEqual({ decision: 'block', reason: 'run the tests before you stop' });

    await page.goto(`${hub.baseUrl}/#${session.id}`);
    const resolved = page.locator('#timeline li[data-event="HubPermissionResolved"]');
    await resolved.waitFor();
    expect(await resolved.locator('.body').innerText()).toMatch(
      /^Bash denied: pushing is for people\nby rule no pushes: tool Bash matched "Bash"/,
    );
    expect(await resolved.getAttribute('data-decided-by')).toBe('rule no pushes');
    const refused = page.locator('#timeline li[data-event="HubStopRefused"]');
    await refused.waitFor();
    expect(await refused.locator('.label').textContent()).toBe('stop refused');
    expect(await refused.locator('.body').innerText()).toMatch(
      /^rule tests first sent claude back: run the tests before you stop\n\S/,
    );
    expect(pageErrors).toEqual([]);
  });
});

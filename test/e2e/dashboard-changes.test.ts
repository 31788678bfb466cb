import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { makeRepo } from '../helpers/git-repo.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const screenshot = path.join(root, 'test/output/dashboard-changes.png');

describe("the dashboard's turn changes, with the real claude CLI and real git", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** Every GraphQL operation the page sent, over HTTP or the socket. */
  const sent: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/graphql')) {
        sent.push(String(JSON.parse(request.postData() ?? '{}').query));
      }
    });
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload));
        if (frame.type === 'subscribe') sent.push(String(frame.payload.query));
      }),
    );
  }, 120_000);

  /** A turn's summary row, by its number. */
  const turnRow = (number: number) =>
    page.locator('#timeline li.turn', {
      has: page.locator('.label', { hasText: `turn ${number} ` }),
    });

  it('lists the files a turn changed when opened, and shows each diff and who allowed the call', async () => {
    const repo = world.makeCwd('repo');
    makeRepo(repo);
    const { createSession } = await hub.data<{ createSession: { id: string } }>(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: ACCEPT_EDITS, trustWorkspace: true }) { id } }`,
      { cwd: repo },
    );
    const id = createSession.id;
    const ask = async (text: string) => {
      const { ask: answer } = await hub.data<{ ask: { reply: string } }>(
        `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { ... on AskReply { reply } } }`,
        { id, text },
      );
      return answer.reply;
    };
    const file = path.join(repo, 'notes.txt');
    // The content is markup: the page shows it as text, and nothing of it runs.
    const hostile = '<img src=x onerror=window.pwned=1>';
    expect(await ask(`write: ${file} first ${hostile}`)).toBe(`wrote: ${file}`);
    expect(await ask(`edit: ${file} first second`)).toBe(`edited: ${file}`);

    await page.goto(`${hub.baseUrl}/#${id}`);
    await page.locator('#connection', { hasText: /^connected$/ }).waitFor();
    await turnRow(2).waitFor({ timeout: 30_000 });
    // The turn list asks for no changes: only opening a turn's does, for that turn.
    expect(sent.filter((query) => query.includes('changes'))).toEqual([]);

    const first = turnRow(1);
    const changes = first.locator('details.changes');
    expect(await changes.locator(':scope > summary').textContent()).toBe('changes');
    expect(await changes.getAttribute('open')).toBeNull();
    await changes.locator(':scope > summary').click();
    const listed = changes.locator('details.file-change');
    await listed.first().waitFor({ timeout: 10_000 });
    expect(
      await listed.evaluateAll((items) =>
        items.map((item) => `${item.getAttribute('data-kind')} ${item.getAttribute('data-path')}`),
      ),
    ).toEqual(['ADD notes.txt']);
    expect(await listed.locator('summary').innerText()).toMatch(/^add\s+notes\.txt$/);
    const changeQueries = sent.filter((query) => query.includes('changes'));
    expect(changeQueries).toHaveLength(1);
    expect(changeQueries[0]).toMatch(
      /query DashboardTurnChanges\(\$id: ID!\)\s*\{\s*turn\(id: \$id\)/,
    );

    // A click on the file opens its diff and who allowed the call that made it.
    const notes = listed.first();
    await notes.locator('summary').click();
    const diff = notes.locator('pre.diff');
    await diff.waitFor();
    expect(await diff.textContent()).toMatch(
      /^diff --git a\/notes\.txt b\/notes\.txt\nnew file mode/,
    );
    const added = notes.locator('pre.diff .add');
    expect(await added.allTextContents()).toEqual([`+first ${hostile}`]);
    expect(await notes.locator('pre.diff .del').count()).toBe(0);
    expect(await notes.locator('.approvals li').allTextContents()).toEqual([
      `Write ${file}: allowed by the mode acceptEdits`,
    ]);
    expect(await notes.locator('.approvals li').getAttribute('data-approval')).toBe('MODE');
    expect(await notes.locator('.diff-note').count()).toBe(0);
    // Added and removed lines look unlike each other and unlike the context.
    const colour = (selector: string) =>
      notes
        .locator(selector)
        .first()
        .evaluate((line) => getComputedStyle(line).color);
    expect(await colour('pre.diff .add')).not.toBe(await colour('pre.diff .meta'));

    // The second turn's edit: a removed and an added line.
    const second = turnRow(2).locator('details.changes');
    await second.locator(':scope > summary').click();
    const edited = second.locator('details.file-change');
    await edited.first().waitFor({ timeout: 10_000 });
    expect(await edited.getAttribute('data-kind')).toBe('MODIFY');
    await edited.locator('summary').click();
    await edited.locator('pre.diff').waitFor();
    expect(await edited.locator('pre.diff .del').allTextContents()).toContain(`-first ${hostile}`);
    expect(await edited.locator('pre.diff .add').allTextContents()).toContain(`+second ${hostile}`);
    expect(await colour('pre.diff .add')).not.toBe(
      await edited
        .locator('pre.diff .del')
        .first()
        .evaluate((line) => getComputedStyle(line).color),
    );
    expect(await edited.locator('.approvals li').allTextContents()).toEqual([
      `Edit ${file}: allowed by the mode acceptEdits`,
    ]);

    // Nothing of the file was taken as markup.
    expect(await page.locator('#timeline img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: unknown }).pwned)).toBeUndefined();
    // Closing and opening again reads nothing new.
    await changes.locator(':scope > summary').click();
    await changes.locator(':scope > summary').click();
    expect(sent.filter((query) => query.includes('changes'))).toHaveLength(2);

    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 180_000);
});

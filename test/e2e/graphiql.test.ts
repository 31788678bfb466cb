import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { leftovers } from '../helpers/leftovers.js';

/** GraphiQL as a person uses it: its Monaco editors, the run button and the result pane. */
class GraphiQL {
  readonly #page: Page;
  readonly #result: Locator;

  constructor(page: Page) {
    this.#page = page;
    this.#result = page.locator('section.result-window .view-lines');
  }

  /** Waits until the page has rendered its editors. */
  async ready(): Promise<void> {
    await this.#page.locator('.graphiql-execute-button').waitFor();
  }

  /** Replaces an editor's text as if pasted (typed brackets and quotes would be auto-closed). */
  async #fill(editor: Locator, text: string): Promise<void> {
    await editor.locator('.view-lines').click();
    await this.#page.keyboard.press('ControlOrMeta+A');
    await this.#page.keyboard.press('Delete');
    await this.#page.keyboard.insertText(text);
    await expect.poll(() => shown(editor.locator('.view-lines'))).toBe(text);
  }

  /** Puts the operation in the query editor and runs it. */
  async run(operation: string): Promise<void> {
    await this.#fill(this.#page.locator('.graphiql-editor[data-mode-id="graphql"]'), operation);
    await this.#page.getByRole('button', { name: 'Execute query (Ctrl-Enter)' }).click();
  }

  /** Puts the JSON in the Headers pane, sent with every operation from then on. */
  async setHeaders(headers: Record<string, string>): Promise<void> {
    await this.#page.getByRole('button', { name: 'Headers', exact: true }).click();
    const editor = this.#page
      .locator('section.graphiql-editor-tool .graphiql-editor[data-mode-id="json"]')
      .last();
    await this.#fill(editor, JSON.stringify(headers));
  }

  /** Waits until the result pane shows the text (the result as GraphiQL indents it). */
  async shows(text: string, timeout = 15_000): Promise<void> {
    await expect.poll(() => shown(this.#result), { timeout }).toContain(text);
  }
}

/** The text of a Monaco editor's visible lines, with its non-breaking spaces as spaces. */
async function shown(lines: Locator): Promise<string> {
  return (await lines.innerText()).replaceAll('\u00a0', ' ');
}

/**
 * A page that reaches the hub and nothing else: every other request and WebSocket is refused
 * and recorded in `outside`.
 */
async function offlinePage(browser: Browser, hub: TestHub) {
  const origin = new URL(hub.baseUrl).origin;
  const outside: string[] = [];
  const context = await browser.newContext();
  leftovers.add(() => context.close());
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(
    (url) => url.origin !== origin.replace(/^http/, 'ws'),
    (socket) => {
      outside.push(socket.url());
      return socket.close();
    },
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, outside, errors };
}

const send = (hub: TestHub, id: string, text: string) =>
  hub.data(
    `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
    { id, text },
  );

/** Every event of the session from the first; each replaces the last in the result pane. */
const sessionEvents = (id: string) =>
  `subscription { sessionEvents(id: "${id}", after: 0) { seq eventName ... on StopEvent { lastAssistantMessage } } }`;

describe('GraphiQL, served from installed packages', () => {
  let world: ClaudeWorld;
  let browser: Browser;

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    browser = await launchChromium();
  }, 120_000);

  /** A hub running claude against the local stand-in, with one idle session named `name`. */
  async function hubWithSession(name: string, args: string[] = [], token?: string) {
    const hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, ...args],
      ...(token !== undefined && { token }),
    });
    const { createSession } = await hub.data(
      `mutation($cwd: String!, $name: String!) { createSession(input: { cwd: $cwd, name: $name }) { id } }`,
      { cwd: world.makeCwd(name), name },
    );
    return { hub, sessionId: createSession.id as string };
  }

  it('opens from the dashboard offline, runs a query, and a subscription over graphql-ws', async () => {
    const { hub, sessionId } = await hubWithSession('graphiql-ws');
    const { page, outside, errors } = await offlinePage(browser, hub);
    await page.goto(`${hub.baseUrl}/`);
    await page.getByRole('link', { name: 'GraphiQL' }).click();
    const graphiql = new GraphiQL(page);
    await graphiql.ready();
    expect(new URL(page.url()).pathname).toBe('/graphql');
    expect(await page.title()).toBe('claude-code-hub');
    // From here on: the dashboard's own subscriptions are not GraphiQL's.
    const subscribed: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload));
        if (frame.type === 'subscribe') subscribed.push(frame.payload.query);
      }),
    );

    await graphiql.run('{ sessions { id name } }');
    await graphiql.shows(`"id": "${sessionId}"`);
    await graphiql.shows('"name": "graphiql-ws"');

    await graphiql.run(sessionEvents(sessionId));
    await graphiql.shows('"eventName": "SessionStart"');
    await send(hub, sessionId, 'hello graphiql');
    await graphiql.shows('"lastAssistantMessage": "echo: hello graphiql"', 45_000);
    expect(subscribed).toEqual([expect.stringContaining(`{sessionEvents(id:"${sessionId}"`)]);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('sends the Headers pane token with queries, and runs subscriptions over SSE with it', async () => {
    const secret = 'graphiql-test-secret-0123456789';
    const { hub, sessionId } = await hubWithSession('graphiql-sse', ['--token', secret], secret);
    const { page, outside, errors } = await offlinePage(browser, hub);
    const streams: (string | undefined)[] = [];
    page.on('request', (request) => {
      const headers = request.headers();
      if (headers.accept?.includes('text/event-stream')) streams.push(headers.authorization);
    });
    page.on('websocket', (socket) => outside.push(`unexpected WebSocket ${socket.url()}`));

    await page.goto(hub.url);
    const graphiql = new GraphiQL(page);
    await graphiql.ready();
    await graphiql.run('{ sessions { name } }');
    await graphiql.shows('missing Authorization');

    await graphiql.setHeaders({ Authorization: `Bearer ${secret}` });
    await graphiql.run('{ sessions { name } }');
    await graphiql.shows('"name": "graphiql-sse"');

    await graphiql.run(sessionEvents(sessionId));
    await graphiql.shows('"eventName": "SessionStart"');
    await send(hub, sessionId, 'hello sse');
    await graphiql.shows('"lastAssistantMessage": "echo: hello sse"', 45_000);
    expect(streams).toEqual([`Bearer ${secret}`]);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});

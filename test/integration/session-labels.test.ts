import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { runCli } from '../helpers/cli-run.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { hookSession } from '../helpers/hook-session.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';
import type { LiveQueue } from '../helpers/live-queue.js';
import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';

const secrets = {
  admin: 'admin-secret-0123456789',
  control: 'control-secret-0123456789',
  read: 'read-secret-0123456789',
  hook: 'hook-secret-0123456789',
};
type Role = Exclude<keyof typeof secrets, 'hook'>;

const sessionFields = 'id labels createdBy origin';
const create = `mutation($input: CreateSessionInput!) { createSession(input: $input) { ${sessionFields} } }`;
const setLabels = `mutation($id: ID!, $labels: [String!]!) { setSessionLabels(sessionId: $id, labels: $labels) { ${sessionFields} } }`;
const labelled = `query($label: String) { sessions(label: $label) { id } }`;

interface Session {
  readonly id: string;
  readonly labels: string[];
  readonly createdBy: string | null;
  readonly origin: string;
}

const cli = (hub: TestHub, role: Role, ...argv: string[]) => runCli(hub.url, secrets[role], argv);

describe('session labels and the token that created a session', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let dataDir: string;
  let tokensFile: string;
  let root: string;
  /** Created by control-bot with labels. */
  let first: Session;
  /** Created by admin-bot without labels. */
  let second: Session;
  /** Started by hand; its hooks post with the hook token. */
  let external: Session;

  const startLabelHub = () =>
    startHub({
      env: world.env,
      dataDir,
      token: secrets.admin,
      args: ['--claude-bin', claudeBin, '--tokens-file', tokensFile],
    });
  const gqlAs = async (role: Role, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets[role]}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: Record<string, any> | null;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  };
  const sessionById = async (id: string): Promise<Session> =>
    (await hub.data(`query($id: ID!) { session(id: $id) { ${sessionFields} } }`, { id })).session;
  const idsWith = async (label: string | null): Promise<string[]> =>
    (await hub.data(labelled, { label })).sessions.map((s: { id: string }) => s.id);

  beforeAll(async () => {
    world = await startClaudeWorld();
    root = world.makeCwd('labelled');
    dataDir = tempDir('cch-labels-data-');
    tokensFile = writeTokensFile(tempDir('cch-labels-tokens-'), tokensByScope(secrets));
    hub = await startLabelHub();
    const created = await gqlAs('control', create, {
      input: { cwd: root, labels: ['team:infra', 'ticket=ABC-12', 'team:infra', 'repo/app'] },
    });
    expect(created.errors).toBeUndefined();
    first = created.data!.createSession;
    ({ createSession: second } = await hub.data(create, { input: { cwd: root } }));
    const hand = await hookSession(hub, { token: secrets.hook, cwd: root });
    external = await sessionById(hand.id);
  });

  it('keeps the labels given to createSession, duplicates dropped, and names the creating token', () => {
    expect(first).toEqual({
      id: expect.any(String),
      labels: ['team:infra', 'ticket=ABC-12', 'repo/app'],
      createdBy: 'control-bot',
      origin: 'MANAGED',
    });
    expect(second).toMatchObject({ labels: [], createdBy: 'admin-bot', origin: 'MANAGED' });
    expect(external).toMatchObject({ labels: [], createdBy: null, origin: 'EXTERNAL' });
  });

  it('lists only the sessions carrying a label when sessions(label:) names one', async () => {
    expect(await idsWith(null)).toEqual([first.id, second.id, external.id]);
    expect(await idsWith('team:infra')).toEqual([first.id]);
    expect(await idsWith('repo/app')).toEqual([first.id]);
    expect(await idsWith('team')).toEqual([]);
  });

  it('replaces the labels with setSessionLabels, publishes the change, and audits it', async () => {
    const updates: LiveQueue<{ sessionUpdates: Session }> = hub.subscribe(
      `subscription($id: ID) { sessionUpdates(id: $id) { ${sessionFields} } }`,
      { id: second.id },
    );
    // sessionUpdates replays nothing: change the labels until the subscription hears one.
    for (let probe = 0; updates.received.length === 0; probe++) {
      await gqlAs('control', setLabels, { id: second.id, labels: [`probe-${probe}`] });
      await updates.next(200).catch(() => undefined);
    }
    const result = await gqlAs('control', setLabels, {
      id: second.id,
      labels: ['env=prod', 'team:web', 'env=prod'],
    });
    expect(result).toEqual({
      data: {
        setSessionLabels: {
          id: second.id,
          labels: ['env=prod', 'team:web'],
          createdBy: 'admin-bot',
          origin: 'MANAGED',
        },
      },
    });
    const [last] = (await updates.until((u) => u.sessionUpdates.labels[0] === 'env=prod')).slice(
      -1,
    );
    expect(last!.sessionUpdates).toEqual(result.data!.setSessionLabels);
    updates.dispose();
    expect(await idsWith('team:web')).toEqual([second.id]);
    // An EXTERNAL session takes labels too; an empty list removes them all.
    await gqlAs('control', setLabels, { id: external.id, labels: ['by-hand'] });
    expect((await sessionById(external.id)).labels).toEqual(['by-hand']);
    expect(await idsWith('by-hand')).toEqual([external.id]);

    const { audit } = await hub.data(
      `query($id: ID) { audit(sessionId: $id, last: 1) { actor action sessionId outcome detail } }`,
      { id: second.id },
    );
    expect(audit).toEqual([
      {
        actor: 'control-bot',
        action: 'setSessionLabels',
        sessionId: second.id,
        outcome: 'ok',
        detail: { labels: ['env=prod', 'team:web', 'env=prod'] },
      },
    ]);
  });

  it('refuses bad labels with BAD_USER_INPUT and changes nothing', async () => {
    const before = await sessionById(first.id);
    const bad: [unknown[], string][] = [
      [[''], 'labels[0] must be 1 to 64 letters, digits or any of . _ : / = -, got "" (string)'],
      [['ok', 'two words'], 'labels[1] must be 1 to 64'],
      [['x'.repeat(65)], 'labels[0] must be 1 to 64'],
      [['naïve'], 'got "naïve" (string)'],
      [Array.from({ length: 33 }, (_, i) => `l${i}`), 'at most 32 labels, got 33 different ones'],
    ];
    for (const [labels, message] of bad) {
      const result = await gqlAs('control', setLabels, { id: first.id, labels });
      expect(result.data).toBeNull();
      expect(result.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining(message),
          extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
        }),
      ]);
    }
    expect(await sessionById(first.id)).toEqual(before);
    // createSession refuses them before it starts anything.
    const count = (await idsWith(null)).length;
    const refused = await gqlAs('control', create, { input: { cwd: root, labels: ['a b'] } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.errors?.[0]?.message).toContain('got "a b" (string)');
    expect(await idsWith(null)).toHaveLength(count);
    const { audit } = await hub.data(
      `query($id: ID) { audit(sessionId: $id, last: 1) { action outcome } }`,
      { id: first.id },
    );
    expect(audit).toEqual([{ action: 'setSessionLabels', outcome: 'BAD_USER_INPUT' }]);
  });

  it('refuses setSessionLabels to a read token, FORBIDDEN, and changes nothing', async () => {
    const result = await gqlAs('read', setLabels, { id: first.id, labels: ['mine'] });
    expect(result.errors?.[0]).toMatchObject({
      message: 'token "read-bot" has scope read; mutation field setSessionLabels needs control',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await sessionById(first.id)).labels).toEqual([
      'team:infra',
      'ticket=ABC-12',
      'repo/app',
    ]);
  });

  it('sets and lists labels from the command line', async () => {
    const set = await cli(hub, 'control', 'label', first.id, 'cli:one', 'cli:two', 'cli:one');
    expect(set).toEqual({ code: 0, out: `${first.id} cli:one cli:two`, err: '' });
    const listed = await cli(hub, 'read', 'ls', '--label', 'cli:two', '--json');
    expect(listed.code).toBe(0);
    expect(listed.out.split('\n').map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ id: first.id, labels: ['cli:one', 'cli:two'] }),
    ]);
    const table = await cli(hub, 'read', 'ls', '--label', 'cli:one');
    expect(table.out.split('\n')[0]).toMatch(/^ID\s+STATUS\s+LAST\s+CWD\s+ATTACH\s+LABELS$/);
    expect(table.out).toContain('cli:one,cli:two');
    const refused = await cli(hub, 'control', 'label', first.id, 'no spaces');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('BAD_USER_INPUT: labels[0] must be 1 to 64');
  });

  it('keeps labels and createdBy across a restart, and reads older records as [] and null', async () => {
    await hub.stop();
    // A record stored by a hub from before labels: the fields are absent.
    const db = new Database(path.join(dataDir, 'hub.db'));
    const row = db.prepare('SELECT record FROM sessions WHERE id = ?').get(second.id) as {
      record: string;
    };
    const { labels: _labels, createdBy: _createdBy, ...older } = JSON.parse(row.record);
    db.prepare('UPDATE sessions SET record = ? WHERE id = ?').run(JSON.stringify(older), second.id);
    db.close();

    hub = await startLabelHub();
    expect(await sessionById(first.id)).toMatchObject({
      labels: ['cli:one', 'cli:two'],
      createdBy: 'control-bot',
    });
    expect(await sessionById(second.id)).toMatchObject({ labels: [], createdBy: null });
    expect(await sessionById(external.id)).toMatchObject({
      labels: ['by-hand'],
      createdBy: null,
    });
    expect(await idsWith('cli:two')).toEqual([first.id]);
    // A stopped session still takes labels.
    const relabelled = await gqlAs('control', setLabels, { id: second.id, labels: ['kept'] });
    expect(relabelled.data!.setSessionLabels.labels).toEqual(['kept']);
  });
});

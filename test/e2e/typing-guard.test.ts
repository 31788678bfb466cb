import { execa, type ResultPromise } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { screenOf } from '../../harness/tmux-server.js';
import { inputBoxText } from '../../src/runtime/screen.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { leftovers } from '../helpers/leftovers.js';

interface Person {
  /** Sends text to the terminal as keystrokes. */
  press(keys: string): void;
  leave(): Promise<void>;
}

/**
 * A person's tmux client on the session, in a terminal of its own (util-linux `script` gives it
 * a pty): what is written to it arrives as keys typed at that terminal. The terminal is as large
 * as the pane the hub made, so the person does not resize claude's screen. Resolves once the
 * client is attached and the second it attached in is over: tmux keeps times in seconds, and a
 * key within that second looks like none at all.
 */
async function attachPerson(socket: string, tmuxSession: string): Promise<Person> {
  const client: ResultPromise = execa(
    'script',
    [
      '-q',
      '-c',
      `stty cols 200 rows 51; exec tmux -L ${socket} attach -t ${tmuxSession}`,
      '/dev/null',
    ],
    {
      stdin: 'pipe',
      stdout: 'ignore',
      stderr: 'ignore',
      env: { TERM: 'xterm-256color' },
      reject: false,
    },
  );
  const person: Person = {
    press: (keys) => void client.stdin!.write(keys),
    async leave() {
      client.kill();
      await client;
    },
  };
  try {
    const attachedAt = async () =>
      (
        await execa(
          'tmux',
          ['-L', socket, 'list-clients', '-t', `=${tmuxSession}:`, '-F', '#{client_created}'],
          { reject: false },
        )
      ).stdout;
    const created = Number(await until(attachedAt, (listed) => listed !== ''));
    await new Promise((resolve) => setTimeout(resolve, (created + 1) * 1000 - Date.now()));
    return person;
  } catch (error) {
    await person.leave();
    throw error;
  }
}

/** Reads until `done` holds, returning what passed. */
function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000) {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`not yet: ${JSON.stringify(value).slice(0, 1500)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

interface MessageState {
  status: string;
  heldBy: string | null;
  sentAt: string | null;
  promptSeq: number | null;
}

describe('a person at the terminal comes first', () => {
  let world: ClaudeWorld;

  beforeAll(async () => {
    world = await startClaudeWorld();
  });

  const hubWithGrace = (seconds: number): Promise<TestHub> =>
    startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--typing-grace', String(seconds)],
    });

  /**
   * A session with a person attached who typed into claude's input box and deleted it again, as
   * one does; resolves with the time just before their last keys.
   */
  async function typedInto(hub: TestHub) {
    const { createSession: session } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession status } }`,
      { cwd: world.makeCwd() },
    );
    expect(session.status).toBe('IDLE');
    const socket = hub.config.tmuxSocket;
    const person = await attachPerson(socket, session.tmuxSession);
    leftovers.add(() => person.leave());
    const box = () => screenOf(socket, session.tmuxSession).then(inputBoxText);
    person.press('still typing');
    await until(box, (text) => text === 'still typing');
    const lastKeyAt = Date.now();
    person.press('\x7f'.repeat('still typing'.length));
    await until(box, (text) => text === '');
    return { id: session.id as string, lastKeyAt };
  }

  const message = async (hub: TestHub, id: string) =>
    (
      await hub.data(
        `query($id: ID!) { session(id: $id) { messages(last: 1) { status heldBy sentAt promptSeq } } }`,
        { id },
      )
    ).session.messages[0] as MessageState;

  const promptOf = async (hub: TestHub, id: string, seq: number) =>
    (
      await hub.data(
        `query($id: ID!) { session(id: $id) { events(limit: 1000) { seq payload } } }`,
        {
          id,
        },
      )
    ).session.events.find((event: { seq: number }) => event.seq === seq)?.payload.prompt;

  it('holds a queued message while a person typed within the grace, then delivers it', async () => {
    const hub = await hubWithGrace(3);
    const { id, lastKeyAt } = await typedInto(hub);
    const text = 'from the queue, after the person';
    const { enqueueMessage } = await hub.data(
      `mutation($id: ID!, $text: String!) { enqueueMessage(sessionId: $id, text: $text) { status } }`,
      { id, text },
    );
    expect(enqueueMessage.status).toBe('QUEUED');

    const held = await until(
      () => message(hub, id),
      (state) => state.heldBy !== null || state.status !== 'QUEUED',
    );
    expect(held).toMatchObject({ status: 'QUEUED', sentAt: null });
    expect(held.heldBy).toMatch(
      /^a person typed in the terminal \d s ago; waiting until 3 s pass without typing$/,
    );

    const delivered = await until(
      () => message(hub, id),
      (state) => state.status === 'DELIVERED' || state.status === 'FAILED',
    );
    expect(delivered).toMatchObject({ status: 'DELIVERED', heldBy: null });
    // Typed no sooner than the grace after the person's last key.
    expect(Date.parse(delivered.sentAt!)).toBeGreaterThanOrEqual(lastKeyAt + 3000);
    expect(await promptOf(hub, id, delivered.promptSeq!)).toBe(text);
  });

  it('with --typing-grace 0, and for sendMessage, delivers at once whoever typed', async () => {
    const off = await hubWithGrace(0);
    const { id, lastKeyAt } = await typedInto(off);
    const seen: MessageState[] = [];
    await off.data(
      `mutation($id: ID!, $text: String!) { enqueueMessage(sessionId: $id, text: $text) { id } }`,
      { id, text: 'not held with the guard off' },
    );
    const delivered = await until(
      async () => {
        const state = await message(off, id);
        seen.push(state);
        return state;
      },
      (state) => state.status === 'DELIVERED' || state.status === 'FAILED',
    );
    expect(delivered.status).toBe('DELIVERED');
    expect(seen.filter((state) => state.heldBy !== null)).toEqual([]);
    // Well before the default grace of 10 s after the person's last key would have passed.
    expect(Date.parse(delivered.sentAt!)).toBeLessThan(lastKeyAt + 10_000);
    expect(await promptOf(off, id, delivered.promptSeq!)).toBe('not held with the guard off');

    const on = await hubWithGrace(60);
    const typed = await typedInto(on);
    await on.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id: typed.id, text: 'sent now' },
    );
    const sent = await until(
      () => message(on, typed.id),
      (state) => state.status === 'DELIVERED' || state.status === 'FAILED',
    );
    // Delivered within until's 30 s: held, it would have waited 60 s.
    expect(sent).toMatchObject({ status: 'DELIVERED', heldBy: null });
    expect(await promptOf(on, typed.id, sent.promptSeq!)).toBe('sent now');
  });
});

import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run.js';
import { startHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';
import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';

const scheduleFields =
  'id cron timezone text sessionId createSession overlap nextRunAt lastRunAt lastSessionId lastError createdAt createdBy';

const schedulePrompt = `mutation($input: SchedulePromptInput!) { schedulePrompt(input: $input) { ${scheduleFields} } }`;

interface Listed {
  id: string;
  cron: string;
  timezone: string;
  nextRunAt: string | null;
  createSession: Record<string, unknown> | null;
  createdBy: string;
  [field: string]: unknown;
}

describe('scheduled prompts through the API and the command line, no session needed', () => {
  it('refuses a bad cron line, time zone or target with BAD_USER_INPUT naming the field, storing nothing', async () => {
    const hub = await startHub();
    const cwd = tempDir('cch-schedule-cwd-');
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ cron: '*/5 * * *', createSession: { cwd } }, 'cron', 'cron must have 5 fields'],
      [{ cron: '99 * * * *', createSession: { cwd } }, 'cron', 'cron "99 * * * *" is not valid'],
      [
        { cron: '0 9 * * *', timezone: 'Europe/Nowhere', createSession: { cwd } },
        'timezone',
        'timezone must be an IANA time zone name',
      ],
      [{ cron: '0 9 * * *' }, 'sessionId', 'give exactly one of sessionId'],
      [
        { cron: '0 9 * * *', sessionId: 'a', createSession: { cwd } },
        'createSession',
        'give exactly one of sessionId',
      ],
      [
        { cron: '0 9 * * *', createSession: { cwd, prompt: 'mine' } },
        'createSession.prompt',
        'createSession.prompt must be absent',
      ],
    ];
    for (const [input, field, message] of refusals) {
      const { errors } = await hub.gql(schedulePrompt, { input: { text: 'hello', ...input } });
      expect(errors?.[0]?.message).toContain(message);
      expect(errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const blank = await hub.gql(schedulePrompt, {
      input: { cron: '0 9 * * *', text: ' \n', createSession: { cwd } },
    });
    expect(blank.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(blank.errors?.[0]?.message).toBe('text must not be empty or only whitespace');
    expect((await hub.data(`{ schedules { id } }`)).schedules).toEqual([]);
    const audit = (await hub.data(`{ audit(last: 50) { action outcome } }`)).audit as {
      action: string;
      outcome: string;
    }[];
    expect(audit.filter((entry) => entry.action === 'schedulePrompt')).toHaveLength(
      refusals.length + 1,
    );
    expect(audit.every((entry) => entry.outcome === 'BAD_USER_INPUT')).toBe(true);
  });

  it('keeps a schedule across a restart on the same data dir, with the same next run', async () => {
    const dataDir = tempDir('cch-schedule-data-');
    const cwd = tempDir('cch-schedule-cwd-');
    const first = await startHub({ dataDir });
    const made = (
      await first.data(schedulePrompt, {
        input: {
          cron: '30 6 1 1 *',
          timezone: 'America/New_York',
          text: 'new year report',
          createSession: { cwd, name: 'report', permissionMode: 'ACCEPT_EDITS', orchestrate: true },
          overlap: 'SKIP',
        },
      })
    ).schedulePrompt as Listed;
    expect(made).toMatchObject({
      cron: '30 6 1 1 *',
      timezone: 'America/New_York',
      overlap: 'SKIP',
      sessionId: null,
      lastRunAt: null,
      createdBy: 'local',
      createSession: {
        cwd,
        name: 'report',
        permissionMode: 'acceptEdits',
        orchestration: { reach: 'CHILDREN', depth: 0 },
      },
    });
    // 06:30 in New York on 1 January: 11:30 UTC.
    expect(made.nextRunAt).toMatch(/-01-01T11:30:00\.000Z$/);
    await first.stop();

    const second = await startHub({ dataDir });
    const { schedules } = await second.data<{ schedules: Listed[] }>(
      `{ schedules { ${scheduleFields} } }`,
    );
    expect(schedules).toEqual([made]);
    expect(
      await second.data(`mutation($id: ID!) { deleteSchedule(id: $id) }`, { id: made.id }),
    ).toEqual({ deleteSchedule: true });
    expect(
      await second.data(`mutation($id: ID!) { deleteSchedule(id: $id) }`, { id: made.id }),
    ).toEqual({ deleteSchedule: false });
    expect((await second.data(`{ schedules { id } }`)).schedules).toEqual([]);
  });

  it('schedule add, ls and rm from the command line, with the scopes of createSession and reading', async () => {
    const dir = tempDir('cch-schedule-cli-');
    const secrets = { control: 'control-secret-0123456789', read: 'read-secret-0123456789' };
    const tokensFile = writeTokensFile(dir, tokensByScope(secrets));
    const hub = await startHub({ token: secrets.control, args: ['--tokens-file', tokensFile] });
    const cli = (role: keyof typeof secrets, ...argv: string[]) =>
      runCli(hub.url, secrets[role], argv);

    const added = await cli(
      'control',
      ...['schedule', 'add', '--cron', '0 9 * * 1-5', '--text', 'morning check'],
      ...['--cwd', dir, '--name', 'morning', '--timezone', 'Europe/Berlin', '--overlap', 'skip'],
    );
    expect(added).toMatchObject({ code: 0, err: '' });
    const [id, next, at] = added.out.split(' ');
    expect(next).toBe('next');
    expect(at).toMatch(/T0[78]:00:00\.000Z$/);

    const refused = await cli(
      'read',
      'schedule',
      'add',
      '--cron',
      '* * * * *',
      '--text',
      'x',
      '--cwd',
      dir,
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/FORBIDDEN|scope/);

    const usage = await cli('control', 'schedule', 'add', '--cron', '* * * * *', '--text', 'x');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('give exactly one of --session and --cwd');
    const badOverlap = await cli(
      'control',
      ...[
        'schedule',
        'add',
        '--cron',
        '* * * * *',
        '--text',
        'x',
        '--cwd',
        dir,
        '--overlap',
        'later',
      ],
    );
    expect(badOverlap.err).toContain('--overlap must be wait or skip, got "later"');
    const badCron = await cli(
      'control',
      'schedule',
      'add',
      '--cron',
      'often',
      '--text',
      'x',
      '--cwd',
      dir,
    );
    expect(badCron.code).toBe(1);
    expect(badCron.err).toContain('cron must have 5 fields');

    const listed = await cli('read', 'schedule', 'ls');
    expect(listed.code).toBe(0);
    const [head, row, ...more] = listed.out.split('\n');
    expect(more).toEqual([]);
    expect(head).toMatch(/^ID\s+CRON\s+TIMEZONE\s+TARGET\s+OVERLAP\s+NEXT\s+LAST\s+ERROR\s+TEXT$/);
    expect(row).toContain(id);
    expect(row).toContain('0 9 * * 1-5');
    expect(row).toContain('Europe/Berlin');
    expect(row).toContain(`new:${dir}`);
    expect(row).toContain('SKIP');
    expect(row).toMatch(/morning check$/);
    const json = JSON.parse((await cli('read', 'schedule', 'ls', '--json')).out);
    expect(json).toMatchObject({
      id,
      createdBy: 'control-bot',
      createSession: { cwd: dir, name: 'morning' },
    });

    expect((await cli('read', 'schedule', 'rm', id!)).code).toBe(1);
    expect(await cli('control', 'schedule', 'rm', id!)).toEqual({
      code: 0,
      out: `${id} removed`,
      err: '',
    });
    const again = await cli('control', 'schedule', 'rm', id!);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`no schedule has id "${id}"`);
    expect((await cli('read', 'schedule', 'ls')).out).toBe('');
  });
});

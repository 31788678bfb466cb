import path from 'node:path';
import type { ScheduleOverlap } from '../gql/graphql.js';
import type { Command } from './command.js';
import { ExitCode, UsageError } from './command-io.js';
import { ClientError } from './client.js';
import { short, table } from './format.js';
import {
  DeleteScheduleMutation,
  SchedulePromptMutation,
  SchedulesQuery,
} from './schedule-operations.js';

/** Longest text shown in a `schedule ls` row; --json gives it whole. */
const textWidth = 40;

/** The value of `--overlap` (default: the hub's, WAIT). */
function overlapOption(value: unknown): ScheduleOverlap | undefined {
  if (value === undefined) return undefined;
  const overlap = typeof value === 'string' ? value.toUpperCase() : '';
  if (overlap !== 'WAIT' && overlap !== 'SKIP')
    throw new UsageError(`--overlap must be wait or skip, got ${JSON.stringify(value)}`);
  return overlap;
}

/** The commands on scheduled prompts: add, list, remove. */
export const scheduleCommands: Record<string, Command> = {
  'schedule add': {
    args: '--cron "M H DOM MON DOW" --text TEXT (--session ID | --cwd DIR [--name N]) [--timezone TZ] [--overlap wait|skip]',
    summary:
      'Send TEXT at the times of a cron line (control scope): into the session --session (resumed first when it has ended), or as the prompt of a new session in --cwd at each tick. Prints the schedule id and its next run.',
    positionals: 0,
    options: {
      cron: { type: 'string' },
      text: { type: 'string' },
      session: { type: 'string' },
      cwd: { type: 'string' },
      name: { type: 'string' },
      timezone: { type: 'string' },
      overlap: { type: 'string' },
    },
    optionHelp: [
      '--cron LINE       five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"',
      '--text TEXT       the prompt sent at each tick',
      '--session ID      send into this session',
      '--cwd DIR         or make a new session in DIR at each tick (a relative DIR is from here)',
      '--name N          the name of each new session (with --cwd)',
      '--timezone TZ     an IANA time zone the cron line is read in (default UTC)',
      '--overlap MODE    wait (the default: queue it while the last run is busy) or skip',
    ],
    async run(client, values, _positionals, io) {
      if (typeof values.cron !== 'string') throw new UsageError('--cron is required');
      if (typeof values.text !== 'string') throw new UsageError('--text is required');
      const session = values.session as string | undefined;
      const cwd = values.cwd as string | undefined;
      if ((session === undefined) === (cwd === undefined))
        throw new UsageError('give exactly one of --session and --cwd');
      if (values.name !== undefined && cwd === undefined)
        throw new UsageError('--name names the sessions made with --cwd');
      const { schedulePrompt: schedule } = await client.request(SchedulePromptMutation, {
        input: {
          cron: values.cron,
          text: values.text,
          timezone: values.timezone as string | undefined,
          overlap: overlapOption(values.overlap),
          sessionId: session,
          createSession:
            cwd === undefined
              ? undefined
              : { cwd: path.resolve(cwd), name: values.name as string | undefined },
        },
      });
      io.out(`${schedule.id} next ${schedule.nextRunAt ?? 'never'}`);
      return ExitCode.Ok;
    },
  },
  'schedule ls': {
    args: '[--json]',
    summary:
      'List the scheduled prompts, oldest first: id, cron line, time zone, target (a session, or new: and the directory), overlap, next run, last run, last error, text.',
    positionals: 0,
    options: { json: { type: 'boolean' } },
    optionHelp: ['--json  one JSON object a line, each schedule whole'],
    async run(client, values, _positionals, io) {
      const { schedules } = await client.request(SchedulesQuery, {});
      if (values.json) {
        for (const schedule of schedules) io.out(JSON.stringify(schedule));
        return ExitCode.Ok;
      }
      if (schedules.length === 0) return ExitCode.Ok;
      const target = (schedule: (typeof schedules)[number]) =>
        schedule.sessionId ??
        `new:${String((schedule.createSession as { cwd?: unknown } | null)?.cwd ?? '')}`;
      const rows = schedules.map((schedule) => [
        schedule.id,
        schedule.cron,
        schedule.timezone,
        target(schedule),
        schedule.overlap,
        schedule.nextRunAt ?? '-',
        schedule.lastRunAt ?? '-',
        schedule.lastError ? short(schedule.lastError, textWidth) : '-',
        short(schedule.text, textWidth),
      ]);
      const head = ['ID', 'CRON', 'TIMEZONE', 'TARGET', 'OVERLAP', 'NEXT', 'LAST', 'ERROR', 'TEXT'];
      io.out(table([head, ...rows]));
      return ExitCode.Ok;
    },
  },
  'schedule rm': {
    args: '<id>',
    summary: 'Delete a scheduled prompt (control scope); prints its id and "removed".',
    positionals: 1,
    async run(client, _values, [id], io) {
      const { deleteSchedule } = await client.request(DeleteScheduleMutation, { id: id! });
      if (!deleteSchedule)
        throw new ClientError(`no schedule has id ${JSON.stringify(id)}`, 'NOT_FOUND');
      io.out(`${id} removed`);
      return ExitCode.Ok;
    },
  },
};

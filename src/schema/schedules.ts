import type { CreateInput } from '../hub/hub.js';
import { permissionModes } from '../runtime/claude-command.js';
import { skippedBusy, type ScheduleRecord } from '../schedules/schedule.js';
import { maxScheduleTextChars, maxSchedules } from '../schedules/scheduler.js';
import { audited, textDetail } from './audit.js';
import { builder } from './builder.js';
import { CreateSessionInputRef, orchestrationOf } from './sessions.js';

const ScheduleOverlapRef = builder.enumType('ScheduleOverlap', {
  description: "What a tick does while the schedule's previous run is still busy.",
  values: {
    WAIT: {
      description:
        'Send anyway: into a session, the text is queued and delivered once the turn before has ended; with createSession, the new session is made beside the busy one.',
    },
    SKIP: {
      description: `Send nothing this tick; lastError says "${skippedBusy}". Busy: the session is BUSY or the last run's message is not delivered yet; with createSession, the last session made is BUSY.`,
    },
  } as const,
});

const ScheduleRef = builder.objectRef<ScheduleRecord>('Schedule').implement({
  description:
    'A prompt sent at the times of a cron line: into a session (resumed first when STOPPED or CRASHED), or as the prompt of a new session at each tick. See docs/schedules.md.',
  fields: (t) => ({
    id: t.exposeID('id'),
    cron: t.exposeString('cron', {
      description: 'Five fields: minute hour day-of-month month day-of-week.',
    }),
    timezone: t.exposeString('timezone', {
      description: 'The IANA time zone the cron line is read in.',
    }),
    text: t.exposeString('text'),
    sessionId: t.exposeID('sessionId', { nullable: true }),
    createSession: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'What each tick makes a session from, as the hub keeps it (its prompt is the text).',
      resolve: (schedule) => schedule.createSession,
    }),
    overlap: t.field({ type: ScheduleOverlapRef, resolve: (schedule) => schedule.overlap }),
    nextRunAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The next tick; null when the cron line names no later time.',
      resolve: (schedule) => schedule.nextRunAt,
    }),
    lastRunAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastRunAt }),
    lastSessionId: t.exposeID('lastSessionId', {
      nullable: true,
      description: 'The session the last run sent to, or made.',
    }),
    lastError: t.exposeString('lastError', {
      nullable: true,
      description:
        'Why the last run sent nothing: skipped, or the error it met; null after one that sent.',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (schedule) => schedule.createdAt }),
    createdBy: t.exposeString('createdBy', { description: 'The name of the token that made it.' }),
  }),
});

const SchedulePromptInputRef = builder.inputType('SchedulePromptInput', {
  description: 'Exactly one of sessionId and createSession.',
  fields: (t) => ({
    sessionId: t.id({ description: 'The session each tick sends the text to.' }),
    createSession: t.field({
      type: CreateSessionInputRef,
      description:
        'A new session at each tick, made from this with the text as its prompt (id, resume and prompt must be absent).',
    }),
    cron: t.string({
      required: true,
      description: 'Five fields: minute hour day-of-month month day-of-week, e.g. `*/5 * * * *`.',
    }),
    text: t.string({
      required: true,
      description: `A prompt, checked as sendMessage's text; at most ${maxScheduleTextChars} characters.`,
    }),
    timezone: t.string({ description: 'An IANA time zone name (default UTC).' }),
    overlap: t.field({ type: ScheduleOverlapRef, description: 'Default WAIT.' }),
  }),
});

type GivenSession = NonNullable<(typeof SchedulePromptInputRef)['$inferInput']['createSession']>;

/** The session input as createSession takes it, its enum names turned into the hub's values. */
function createInputOf(given: GivenSession): CreateInput {
  const { permissionMode, worktree, id, orchestrate, orchestrationReach, ...rest } = given;
  return {
    ...rest,
    orchestration: orchestrationOf({ orchestrate, orchestrationReach }),
    id: id == null ? null : String(id),
    permissionMode: permissionMode ? permissionModes[permissionMode] : null,
    worktree: worktree ? { branch: worktree.branch, base: worktree.base } : null,
  };
}

builder.queryField('schedules', (t) =>
  t.field({
    type: [ScheduleRef],
    authScopes: { read: true },
    description: 'Every scheduled prompt, oldest first.',
    resolve: (_root, _args, ctx) => ctx.schedules.list(),
  }),
);

builder.mutationFields((t) => ({
  schedulePrompt: t.field({
    type: ScheduleRef,
    authScopes: { control: true },
    description: `Sends text at the times of a cron line, into a session or as the prompt of a new one (see Schedule). BAD_USER_INPUT naming the field for a bad cron line, time zone or text, or unless exactly one of sessionId and createSession is given; at most ${maxSchedules} schedules. Audited.`,
    args: { input: t.arg({ type: SchedulePromptInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(
        ctx,
        'schedulePrompt',
        {
          sessionId: input.sessionId == null ? null : String(input.sessionId),
          detail: {
            cron: input.cron,
            timezone: input.timezone ?? null,
            overlap: input.overlap ?? null,
            createSession: input.createSession != null,
            text: textDetail(input.text),
          },
        },
        () =>
          ctx.schedules.add(
            {
              cron: input.cron,
              text: input.text,
              timezone: input.timezone,
              overlap: input.overlap ?? null,
              sessionId: input.sessionId == null ? null : String(input.sessionId),
              createSession: input.createSession ? createInputOf(input.createSession) : null,
            },
            ctx.principal.name,
          ),
        (schedule) => ({ target: schedule.id }),
      ),
  }),
  deleteSchedule: t.boolean({
    authScopes: { control: true },
    description:
      'Deletes a schedule; false when none has that id. A run under way goes on. Audited.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      audited(ctx, 'deleteSchedule', { target: String(args.id) }, () =>
        ctx.schedules.remove(String(args.id)),
      ),
  }),
}));

import { LimitReset, type UsageLimitHold } from '../sessions/session.js';
import { builder } from './builder.js';
import { SessionRef } from './sessions.js';

const LimitResetRef = builder.enumType('LimitReset', {
  description: "Where a usage limit's reset time came from.",
  values: {
    CLAUDE: { value: LimitReset.Claude, description: 'The API told claude when the limit resets.' },
    BACKOFF: {
      value: LimitReset.Backoff,
      description:
        "It did not (an API key's 429 after claude's own retries): the hub waits a minute, doubling while the account keeps being refused, at most 30 minutes.",
    },
  },
});

const UsageLimitRef = builder.objectRef<UsageLimitHold>('UsageLimit').implement({
  description:
    "A usage or rate limit of the session's account: its queued messages wait until it resets. See docs/costs.md.",
  fields: (t) => ({
    until: t.field({
      type: 'DateTime',
      description: 'When it resets: the hub lets the messages go then.',
      resolve: (hold) => hold.until,
    }),
    kind: t.exposeString('kind', {
      nullable: true,
      description: 'Which limit claude named (`five_hour`, `seven_day`, ...); null when none.',
    }),
    reset: t.field({ type: LimitResetRef, resolve: (hold) => hold.reset }),
    since: t.field({
      type: 'DateTime',
      description: 'When the hub learned of it.',
      resolve: (hold) => hold.since,
    }),
    cutOff: t.exposeBoolean('cutOff', {
      description:
        "Whether it ended this session's turn: at the reset the hub asks claude to continue that turn, ahead of the waiting messages.",
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  account: t.exposeString('account', {
    nullable: true,
    description:
      'Who its claude bills, as an opaque id: sessions with the same credential (API key or token), or the same login, share one, on every node, and share its usage limits. Null for a session started by hand.',
  }),
  limitedUntil: t.field({
    type: 'DateTime',
    nullable: true,
    description:
      'When the usage limit holding it resets (usageLimit.until); null while none holds it. An idle session held so is LIMITED.',
    resolve: (record) => record.usageLimit?.until ?? null,
  }),
  usageLimit: t.field({
    type: UsageLimitRef,
    nullable: true,
    description: 'The usage limit holding its messages; null while none.',
    resolve: (record) => record.usageLimit,
  }),
}));

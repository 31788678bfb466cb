/**
 * The fleet section's load, made up front from a seed so the hub and the floor get the same
 * one: each session runs claude's turn shape, a UserPromptSubmit, a burst of tool calls
 * (PreToolUse then PostToolUse, a few ms apart, one PostToolUse in eight with a 2-50 KB
 * tool_response), a Stop with `last_assistant_message`, then think time (exponential, with a
 * floor so a finished turn stays IDLE long enough to be seen). The think time is scaled so that
 * all the sessions together post `eventsPerSecond`. Bodies are written only when posted.
 */

export const Kind = { Prompt: 0, Pre: 1, Post: 2, Stop: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** The events in time order, as parallel arrays. */
export interface Schedule {
  /** ms from the load's start. */
  readonly at: Float64Array;
  /** Index of the event's session. */
  readonly session: Int32Array;
  readonly kind: Uint8Array;
  /** The turn's number within its session (UserPromptSubmit, Stop), or the tool call's. */
  readonly n: Int32Array;
  /** Bytes of a PostToolUse's big tool_response; 0 for a small one. */
  readonly big: Int32Array;
  readonly length: number;
  /** Stops, and the events per second the schedule holds over its span. */
  readonly stops: number;
  readonly perSecond: number;
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const exponential = (random: () => number, mean: number) => -Math.log(1 - random()) * mean;
const between = (random: () => number, low: number, high: number) => low + random() * (high - low);

/** Tool calls a turn makes: 1 + exponential, mean about 6. */
const toolCalls = (random: () => number) => 1 + Math.min(30, Math.floor(exponential(random, 5)));
/** Mean events and ms of a turn's active part, for the think time's first guess. */
const turnEvents = 2 + 2 * 6;
const turnActiveMs = 100 + 6 * (15 + 30) + 100;

interface Event {
  at: number;
  session: number;
  kind: Kind;
  n: number;
  big: number;
}

function generate(sessions: number, spanMs: number, thinkMeanMs: number, seed: number): Event[] {
  const random = prng(seed);
  const events: Event[] = [];
  const minThink = Math.min(500, thinkMeanMs * 0.3);
  const think = () => minThink + exponential(random, Math.max(1, thinkMeanMs - minThink));
  for (let session = 0; session < sessions; session++) {
    // Sessions start mid-think, so the load is steady from the first second.
    let t = random() * (thinkMeanMs + turnActiveMs);
    for (let turn = 0, call = 0; t < spanMs; turn++) {
      events.push({ at: t, session, kind: Kind.Prompt, n: turn, big: 0 });
      t += between(random, 20, 180); // the model's first answer
      for (let calls = toolCalls(random); calls > 0; calls--, call++) {
        events.push({ at: t, session, kind: Kind.Pre, n: call, big: 0 });
        t += between(random, 2, 28); // the tool runs
        const big = random() < 1 / 8 ? Math.round(between(random, 2048, 50 * 1024)) : 0;
        events.push({ at: t, session, kind: Kind.Post, n: call, big });
        t += between(random, 5, 55); // the next call, within the same answer or the next
      }
      t += between(random, 20, 180);
      events.push({ at: t, session, kind: Kind.Stop, n: turn, big: 0 });
      t += think();
    }
  }
  return events.filter((event) => event.at < spanMs).sort((a, b) => a.at - b.at);
}

/**
 * The schedule for `sessions` sessions posting `eventsPerSecond` in all for `seconds`: made once
 * with the think time the turn shape's means give, then again, three times, with it corrected by
 * the rate the one before made.
 */
export function fleetSchedule(
  sessions: number,
  eventsPerSecond: number,
  seconds: number,
  seed = 1,
): Schedule {
  const spanMs = seconds * 1000;
  const cycleMs = (turnEvents / (eventsPerSecond / sessions)) * 1000;
  let thinkMeanMs = Math.max(50, cycleMs - turnActiveMs);
  let events = generate(sessions, spanMs, thinkMeanMs, seed);
  const rate = (list: Event[]) => list.length / seconds;
  for (let pass = 0; pass < 3; pass++) {
    const measuredCycle = cycleMs * (eventsPerSecond / Math.max(1, rate(events)));
    thinkMeanMs = Math.max(50, thinkMeanMs + cycleMs - measuredCycle);
    events = generate(sessions, spanMs, thinkMeanMs, seed);
  }
  const length = events.length;
  const schedule = {
    at: new Float64Array(length),
    session: new Int32Array(length),
    kind: new Uint8Array(length),
    n: new Int32Array(length),
    big: new Int32Array(length),
    length,
    stops: 0,
    perSecond: rate(events),
  };
  for (const [i, event] of events.entries()) {
    schedule.at[i] = event.at;
    schedule.session[i] = event.session;
    schedule.kind[i] = event.kind;
    schedule.n[i] = event.n;
    schedule.big[i] = event.big;
    if (event.kind === Kind.Stop) schedule.stops += 1;
  }
  return schedule;
}

const bigOutput = 'x'.repeat(50 * 1024);

/**
 * Event `i`'s body as Claude Code posts it, for the session `sessionId`; with `tag`, a `tag`
 * field first, which the sessionEvents subscribers find in each message's bytes.
 */
export function eventBody(schedule: Schedule, i: number, sessionId: string, tag?: string): string {
  const head = { ...(tag ? { tag } : {}), session_id: sessionId };
  const n = schedule.n[i]!;
  switch (schedule.kind[i] as Kind) {
    case Kind.Prompt:
      return JSON.stringify({
        ...head,
        hook_event_name: 'UserPromptSubmit',
        cwd: '/tmp',
        prompt: `Turn ${n}: look at the failing test and fix it`,
      });
    case Kind.Pre:
      return JSON.stringify({
        ...head,
        hook_event_name: 'PreToolUse',
        cwd: '/tmp',
        tool_name: 'Bash',
        tool_input: { command: `npm test -- --grep case-${n}` },
        tool_use_id: `toolu_${n}`,
      });
    case Kind.Post: {
      const big = schedule.big[i]!;
      return JSON.stringify({
        ...head,
        hook_event_name: 'PostToolUse',
        cwd: '/tmp',
        tool_name: 'Bash',
        tool_input: { command: `npm test -- --grep case-${n}` },
        tool_response: {
          stdout: big > 0 ? bigOutput.slice(0, big) : `ok case-${n}`,
          stderr: '',
          interrupted: false,
        },
        tool_use_id: `toolu_${n}`,
      });
    }
    case Kind.Stop:
      return JSON.stringify({
        ...head,
        hook_event_name: 'Stop',
        cwd: '/tmp',
        stop_hook_active: false,
        last_assistant_message: `Turn ${n} done: the test passes now.`,
      });
  }
}

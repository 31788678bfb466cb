import type { StoredEvent } from '../../src/events/hook-event.js';
import { RunFold, type Turn } from '../../src/runs/run-fold.js';

/** The id of the session every event belongs to. */
export const sessionId = 's1';

/** Events as the log gives them: seq from 1, a second apart. */
export function events(...list: [string, Record<string, unknown>?][]): StoredEvent[] {
  return list.map(([name, fields = {}], i) => {
    const payload = {
      session_id: 'claude-1',
      hook_event_name: name,
      transcript_path: '/t.jsonl',
      ...fields,
    };
    return {
      sessionId,
      seq: i + 1,
      eventName: name,
      receivedAt: 1_000 * (i + 1),
      raw: JSON.stringify(payload),
      payload,
    };
  });
}

/** One hook event: its name and the fields of its payload. */
export type Step = [string, Record<string, unknown>?];
export const prompt = (text: string): Step => ['UserPromptSubmit', { prompt: text }];
export const pre = (id: string, tool: string, input: object) =>
  ['PreToolUse', { tool_use_id: id, tool_name: tool, tool_input: input }] as Step;
export const post = (id: string, tool: string, input: object, response: unknown) =>
  [
    'PostToolUse',
    {
      tool_use_id: id,
      tool_name: tool,
      tool_input: input,
      tool_response: response,
      duration_ms: 7,
    },
  ] as Step;
export const stop = (answer: string) => ['Stop', { last_assistant_message: answer }] as Step;

/** The session's turns, oldest first (the running one last), every action with its detail. */
export function foldTurns(id: string, list: Iterable<StoredEvent>): Turn[] {
  const run = new RunFold(id);
  const turns: Turn[] = [];
  for (const event of list) {
    const { completed } = run.apply(event);
    if (completed) turns.push(completed);
  }
  return run.current ? [...turns, run.current] : turns;
}

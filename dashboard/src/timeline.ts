/**
 * A session's events as a readable timeline: one row per event, except that a tool call's
 * result (PostToolUse or PostToolUseFailure) joins its PreToolUse row by tool_use_id, and the
 * batches of a streaming assistant message (MessageDisplay) join one row by message_id.
 */
import type { DashboardSessionEventsSubscription } from '../../src/gql/graphql.js';
import { duration, elapsed, timeOfDay } from './clock.js';
import { el, type Child } from './dom.js';
import { toolResult, toolSummary } from './tool-text.js';

export type HookEvent = DashboardSessionEventsSubscription['sessionEvents'];

/** Rows kept on the page; older ones are dropped so a long session cannot swamp the tab. */
const maxRows = 2000;

interface ToolRow {
  readonly startedAt: string;
  readonly row: HTMLLIElement;
  readonly outcome: HTMLElement;
  readonly result: HTMLPreElement;
}

export class Timeline {
  readonly element = el('ol', { id: 'timeline', class: 'timeline' });
  /** The highest seq shown. Streams deliver seqs in order, so anything at or below is a repeat. */
  lastSeq = 0;
  readonly #tools = new Map<string, ToolRow>();
  readonly #streams = new Map<string, HTMLElement>();
  /** Whether this turn's assistant text was shown while it streamed, so Stop need not repeat it. */
  #streamedThisTurn = false;

  /** Shows the event; returns false for one seen before. */
  add(event: HookEvent): boolean {
    if (event.seq <= this.lastSeq) return false;
    this.lastSeq = event.seq;
    const atBottom =
      this.element.scrollHeight - this.element.scrollTop - this.element.clientHeight < 40;
    this.#show(event);
    while (this.element.childElementCount > maxRows) this.element.firstElementChild?.remove();
    if (atBottom) this.element.scrollTop = this.element.scrollHeight;
    return true;
  }

  /** A line from the dashboard itself (the stream ended, or failed). */
  note(text: string): void {
    this.element.append(el('li', { class: 'event note' }, text));
  }

  #row(event: HookEvent, label: string, ...body: Child[]): HTMLLIElement {
    const row = el(
      'li',
      { class: 'event', 'data-seq': String(event.seq), 'data-event': event.eventName },
      el('span', { class: 'seq' }, `#${event.seq}`),
      el('time', { class: 'at', datetime: event.receivedAt }, timeOfDay(event.receivedAt)),
      el('span', { class: 'label' }, label),
      el('div', { class: 'body' }, ...body),
    );
    this.element.append(row);
    return row;
  }

  #text(text: string | null | undefined): HTMLPreElement | null {
    return text ? el('pre', {}, text) : null;
  }

  /** A tool still running when its turn ends got no result (it was denied, or interrupted). */
  #endTurn(): void {
    for (const tool of this.#tools.values()) {
      tool.outcome.textContent = 'no result';
      tool.row.classList.replace('running', 'unfinished');
    }
    this.#tools.clear();
    this.#streams.clear();
  }

  #show(event: HookEvent): void {
    switch (event.__typename) {
      case 'SessionStartEvent':
        this.#row(event, 'session start', [event.source, event.model].filter(Boolean).join(' · '));
        return;
      case 'UserPromptSubmitEvent':
        this.#streamedThisTurn = false;
        this.#row(event, 'prompt', this.#text(event.prompt)).classList.add('prompt');
        return;
      case 'PreToolUseEvent': {
        const outcome = el('span', { class: 'outcome' }, 'running for ', elapsed(event.receivedAt));
        const result = el('pre', { class: 'result', hidden: true });
        const row = this.#row(
          event,
          `tool ${event.toolName ?? ''}`,
          el('pre', { class: 'call' }, toolSummary(event.toolName, event.toolInput)),
          outcome,
          result,
        );
        row.classList.add('tool', 'running');
        if (event.toolUseId) {
          this.#tools.set(event.toolUseId, { startedAt: event.receivedAt, row, outcome, result });
        }
        return;
      }
      case 'PostToolUseEvent':
      case 'PostToolUseFailureEvent': {
        const failed = event.__typename === 'PostToolUseFailureEvent';
        const text = failed ? (event.error ?? 'failed') : toolResult(event.toolResponse);
        const tool = event.toolUseId ? this.#tools.get(event.toolUseId) : undefined;
        if (!tool) {
          // Its PreToolUse came before this stream started: show the result on its own.
          this.#row(
            event,
            `tool ${event.toolName ?? ''} ${failed ? 'failed' : 'done'}`,
            this.#text(text),
          );
          return;
        }
        const took = event.durationMs ?? Date.parse(event.receivedAt) - Date.parse(tool.startedAt);
        const how = failed ? (event.isInterrupt ? 'interrupted after' : 'failed after') : 'took';
        tool.outcome.textContent = `${how} ${duration(took)}`;
        tool.result.textContent = text;
        tool.result.hidden = text === '';
        tool.row.classList.replace('running', failed ? 'failed' : 'done');
        tool.row.dataset.resultSeq = String(event.seq);
        this.#tools.delete(event.toolUseId ?? '');
        return;
      }
      case 'PermissionRequestEvent':
        this.#row(
          event,
          'permission asked',
          `${event.toolName ?? ''}: ${toolSummary(event.toolName, event.toolInput)}`,
        ).classList.add('permission');
        return;
      case 'HubPermissionResolvedEvent':
        this.#row(
          event,
          'permission',
          [event.status?.toLowerCase().replaceAll('_', ' '), event.message]
            .filter(Boolean)
            .join(': '),
        ).classList.add('permission');
        return;
      case 'PermissionDeniedEvent':
        this.#row(event, 'denied', `${event.toolName ?? ''}: ${event.reason ?? ''}`);
        return;
      case 'MessageDisplayEvent': {
        const key = event.messageId ?? `seq-${event.seq}`;
        let text = this.#streams.get(key);
        if (!text) {
          text = el('pre', {});
          this.#streams.set(key, text);
          this.#row(event, 'assistant', text).classList.add('assistant', 'streaming');
        }
        text.textContent += event.delta ?? '';
        if (event.final) text.closest('li')?.classList.remove('streaming');
        this.#streamedThisTurn = true;
        return;
      }
      case 'NotificationEvent':
        this.#row(event, 'notification', event.message ?? '');
        return;
      case 'StopEvent':
        this.#endTurn();
        if (this.#streamedThisTurn) this.#row(event, 'turn over');
        else
          this.#row(event, 'assistant', this.#text(event.lastAssistantMessage)).classList.add(
            'assistant',
          );
        return;
      case 'StopFailureEvent':
        this.#endTurn();
        this.#row(event, 'turn failed', event.error ?? '', this.#text(event.lastAssistantMessage));
        return;
      case 'SubagentStopEvent':
        this.#row(
          event,
          `subagent ${event.agentType ?? ''}`,
          this.#text(event.lastAssistantMessage),
        );
        return;
      case 'SessionEndEvent':
        this.#endTurn();
        this.#row(event, 'session end', event.reason ?? '');
        return;
      case 'HubEventsMissedEvent':
        this.#row(
          event,
          'hub was away',
          `${event.stepCount ?? 0} steps happened meanwhile${event.turnOver ? '; the turn is over' : ''}`,
        );
        return;
      default:
        this.#row(event, event.eventName).classList.add('minor');
    }
  }
}

/**
 * A session's run as a readable timeline, fed by three streams: its hook events (one row each,
 * but that the batches of a streaming assistant message join one row by message_id, and tool
 * events are left to their actions), its actions (a row per tool call, updated in place from
 * STARTED to COMPLETED), and its completed turns (a summary row each, with a switch that
 * reads the files the turn changed).
 */
import type { DashboardSessionEventsSubscription } from '../../src/gql/graphql.js';
import { renderAction, type Action } from './action-row.js';
import { timeOfDay } from './clock.js';
import { el, type Child } from './dom.js';
import { toolSummary } from './tool-text.js';
import { renderTurn, type Turn } from './turn-row.js';

export type HookEvent = DashboardSessionEventsSubscription['sessionEvents'];

/** Rows kept on the page; older ones are dropped so a long session cannot swamp the tab. */
const maxRows = 2000;

/** Ties between rows at the same place: lower first. */
const Rank = { event: 0, action: 1, turn: 2, turnStart: 3 } as const;

/**
 * Where a row sits. Events and actions carry the seq of the event that made them, and go by
 * it. A turn has no seq in the API, so its summary goes by time: after the event that
 * completed it (which has the turn's completedAt as its receivedAt), before a prompt or a
 * SessionStart of that same millisecond, which starts the next turn.
 */
interface Place {
  readonly at: number;
  readonly seq: number | null;
  readonly rank: number;
}

function follows(a: Place, b: Place): boolean {
  if (a.seq !== null && b.seq !== null) {
    if (a.seq !== b.seq) return a.seq > b.seq;
  } else if (a.at !== b.at) return a.at > b.at;
  return a.rank > b.rank;
}

export class Timeline {
  readonly element = el('ol', { id: 'timeline', class: 'timeline' });
  /** Told of each ChannelMessage event shown: the session wrote to a channel. */
  readonly #onChannelMessage: () => void;
  /** Makes a turn row's switch for the files the turn changed; none without it. */
  readonly #turnChanges: ((turnId: string) => HTMLElement) | null;
  /** Each turn row's changes switch, kept when the turn is delivered again. */
  readonly #changesOf = new WeakMap<HTMLLIElement, HTMLElement>();
  /** The highest event seq shown. Streams deliver seqs in order, so anything at or below is a repeat. */
  lastSeq = 0;
  /** The highest seq of an action phase shown; several phases can share one (a denial, a Stop). */
  lastActionSeq = 0;
  /** When the last turn shown completed: the turns stream's cursor. */
  lastTurnAt: string | null = null;
  readonly #places = new WeakMap<Element, Place>();
  readonly #actions = new Map<string, HTMLLIElement>();
  readonly #turns = new Map<string, HTMLLIElement>();
  readonly #streams = new Map<string, HTMLElement>();
  /** Whether this turn's assistant text was shown while it streamed, so Stop need not repeat it. */
  #streamedThisTurn = false;

  constructor(
    onChannelMessage: () => void = () => {},
    turnChanges: ((turnId: string) => HTMLElement) | null = null,
  ) {
    this.#onChannelMessage = onChannelMessage;
    this.#turnChanges = turnChanges;
  }

  /** Shows the event; returns false for one seen before. */
  add(event: HookEvent): boolean {
    if (event.seq <= this.lastSeq) return false;
    this.lastSeq = event.seq;
    this.#keepingScroll(() => this.#show(event));
    return true;
  }

  /** Shows an action's phase in the action's row, made at its first phase; false for a repeat. */
  putAction(action: Action): boolean {
    if (action.seq < this.lastActionSeq) return false;
    this.lastActionSeq = action.seq;
    let row = this.#actions.get(action.id);
    if (row?.dataset.phase === 'COMPLETED' && action.phase === 'STARTED') return false;
    if (row) {
      renderAction(row, action);
      return true;
    }
    const at = action.phase === 'STARTED' ? action.startedAt : action.completedAt;
    row = el('li');
    renderAction(row, action);
    this.#actions.set(action.id, row);
    this.#keepingScroll(() =>
      this.#insert(row, {
        at: Date.parse(at ?? action.startedAt),
        seq: action.seq,
        rank: Rank.action,
      }),
    );
    return true;
  }

  /** Shows a completed turn's summary; a turn delivered again replaces its row. */
  putTurn(turn: Turn): void {
    if (turn.completedAt && (!this.lastTurnAt || turn.completedAt > this.lastTurnAt)) {
      this.lastTurnAt = turn.completedAt;
    }
    const shown = this.#turns.get(turn.id);
    if (shown) return renderTurn(shown, turn, this.#changesOf.get(shown));
    const row = el('li');
    const changes = this.#turnChanges?.(turn.id);
    if (changes) this.#changesOf.set(row, changes);
    renderTurn(row, turn, changes);
    this.#turns.set(turn.id, row);
    // The stream gives completed turns; one without a time would go last.
    const at = Date.parse(turn.completedAt ?? '') || Infinity;
    this.#keepingScroll(() => this.#insert(row, { at, seq: null, rank: Rank.turn }));
  }

  /** A line from the dashboard itself (a stream ended, or failed); later rows go below it. */
  note(text: string): void {
    this.element.append(el('li', { class: 'event note' }, text));
  }

  /** Follows new rows while the reader is at the bottom, and drops the oldest beyond maxRows. */
  #keepingScroll(change: () => void): void {
    const atBottom =
      this.element.scrollHeight - this.element.scrollTop - this.element.clientHeight < 40;
    change();
    while (this.element.childElementCount > maxRows) {
      const oldest = this.element.firstElementChild as HTMLElement;
      this.#actions.delete(oldest.dataset.actionId ?? '');
      this.#turns.delete(oldest.dataset.turnId ?? '');
      oldest.remove();
    }
    if (atBottom) this.element.scrollTop = this.element.scrollHeight;
  }

  /** Streams arrive apart, so a row goes after the last one it follows, not always at the end. */
  #insert(row: HTMLLIElement, place: Place): void {
    this.#places.set(row, place);
    let before: Element | null = null;
    for (let prev = this.element.lastElementChild; prev; prev = prev.previousElementSibling) {
      const there = this.#places.get(prev);
      if (!there || !follows(there, place)) break;
      before = prev;
    }
    this.element.insertBefore(row, before);
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
    const startsTurn =
      event.__typename === 'UserPromptSubmitEvent' || event.__typename === 'SessionStartEvent';
    this.#insert(row, {
      at: Date.parse(event.receivedAt),
      seq: event.seq,
      rank: startsTurn ? Rank.turnStart : Rank.event,
    });
    return row;
  }

  /** Who decided, and what a rule matched, under the decision. */
  #explanation(text: string | null | undefined): HTMLElement | null {
    return text ? el('div', { class: 'decided-by' }, text) : null;
  }

  #text(text: string | null | undefined): HTMLPreElement | null {
    return text ? el('pre', {}, text) : null;
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
      case 'PreToolUseEvent':
      case 'PostToolUseEvent':
      case 'PostToolUseFailureEvent':
        // Shown by their action's row.
        return;
      case 'PermissionRequestEvent':
        this.#row(
          event,
          'permission asked',
          `${event.toolName ?? ''}: ${toolSummary(event.toolName, event.toolInput)}`,
        ).classList.add('permission');
        return;
      case 'HubPermissionResolvedEvent': {
        // `Bash denied: not that file`, then who decided and what a rule matched.
        const outcome = [event.status?.toLowerCase().replaceAll('_', ' '), event.message]
          .filter(Boolean)
          .join(': ');
        const by = [event.decidedBy && `by ${event.decidedBy}`, event.explanation]
          .filter(Boolean)
          .join(': ');
        const row = this.#row(
          event,
          'permission',
          [event.toolName, outcome].filter(Boolean).join(' '),
          this.#explanation(by),
        );
        row.classList.add('permission');
        if (event.decidedBy) row.dataset.decidedBy = event.decidedBy;
        return;
      }
      case 'HubStopRefusedEvent':
        this.#row(
          event,
          'stop refused',
          `rule ${event.rule ?? '?'} sent claude back: ${event.reason ?? ''}`,
          this.#explanation(event.explanation),
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
        this.#streams.clear();
        if (this.#streamedThisTurn) this.#row(event, 'turn over');
        else
          this.#row(event, 'assistant', this.#text(event.lastAssistantMessage)).classList.add(
            'assistant',
          );
        return;
      case 'StopFailureEvent':
        this.#streams.clear();
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
        this.#streams.clear();
        this.#row(event, 'session end', event.reason ?? '');
        return;
      case 'HubEventsMissedEvent':
        this.#row(
          event,
          'hub was away',
          `${event.stepCount ?? 0} steps happened meanwhile${event.turnOver ? '; the turn is over' : ''}`,
        );
        return;
      case 'ChannelMessageEvent': {
        const row = this.#row(event, `→ #${event.channel ?? '?'}`, this.#text(event.text));
        row.classList.add('channel-message');
        row.dataset.channel = event.channel ?? '';
        row.title = `message ${event.channelSeq ?? '?'} in #${event.channel ?? '?'}`;
        this.#onChannelMessage();
        return;
      }
      case 'StreamMessageEvent':
        // A headless claude's output: its hook events, actions and turns already show it. Only
        // a line that is not JSON says something nothing else does.
        if (event.type === 'not_json')
          this.#row(event, 'claude printed', this.#text(String(event.line))).classList.add('minor');
        return;
      default:
        this.#row(event, event.eventName).classList.add('minor');
    }
  }
}

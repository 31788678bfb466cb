/**
 * The open session: its details and controls, its screen and keys while BLOCKED, its live
 * terminal, its live timeline, and the message box.
 */
import { duration, elapsed } from './clock.js';
import { button, el, fill } from './dom.js';
import type { HubClient } from './hub-client.js';
import { sessionLabel, type HubState, type Session } from './hub-state.js';
import { showError, showNotice } from './notice.js';
import {
  AskMutation,
  EnqueueMessageMutation,
  InterruptSessionMutation,
  ResumeSessionMutation,
  ScreenQuery,
  SendKeysMutation,
  StopSessionMutation,
} from './operations.js';
import { goToPaneButton, originBadge, paneText } from './session-terminal.js';
import { TerminalPanel } from './terminal-panel.js';
import { Timeline } from './timeline.js';
import { followTimeline } from './timeline-feed.js';
import { turnChanges } from './turn-changes.js';
import { dollars, type Turn } from './turn-row.js';

/** The keys a BLOCKED session's dialogs usually need. */
const dialogKeys = ['Enter', 'Escape', 'Up', 'Down', '1', '2', '3', 'y', 'n'];

const ended = (session: Session) => session.status === 'STOPPED' || session.status === 'CRASHED';

/** The session's cost, for its details. */
function costTerm(cost: number | null): HTMLElement {
  return cost === null
    ? el('dd', { class: 'cost' }, 'no turn completed yet')
    : el(
        'dd',
        {
          class: 'cost',
          'data-cost': '',
          title:
            "What its completed turns cost: claude's figures, or their tokens at the price table's prices",
        },
        dollars.format(cost),
      );
}

export class SessionView {
  readonly element = el('section', { id: 'session' });
  readonly #hub: HubClient;
  readonly #state: HubState;
  readonly #summary = el('div', { class: 'summary' });
  readonly #blocked = el('div', { class: 'blocked', hidden: true });
  readonly #terminal: TerminalPanel;
  readonly #onChannelMessage: () => void;
  #id: string | null = null;
  #timeline = new Timeline();
  /** Ends the timeline's streams; set while they are open. */
  #unfollow: (() => void) | null = null;
  /** The streams completed because the session ended; a resume starts them again. */
  #streamEnded = false;
  /**
   * Whether the state showed the session ended. The stream may complete before the STOPPED
   * update arrives: only a live status after an ended one means it was resumed.
   */
  #sawEnded = false;
  /** The pane text of a BLOCKED session, fetched when it became BLOCKED. */
  #screen: string | null = null;
  /**
   * The cost of each completed turn the turns stream delivered (0: unknown). The hub keeps a
   * turn's cost just after the turn completes, so the session's costUsd in an update sent as it
   * completed may not count it yet; these do.
   */
  #turnCosts = new Map<string, number>();
  readonly #onTurn: () => void;

  /**
   * `onChannelMessage` hears of each message the open session sent to a channel, `onTurn` of
   * each of its turns delivered.
   */
  constructor(
    hub: HubClient,
    state: HubState,
    onChannelMessage: () => void,
    onTurn: () => void = () => {},
  ) {
    this.#hub = hub;
    this.#state = state;
    this.#onChannelMessage = onChannelMessage;
    this.#onTurn = onTurn;
    this.#terminal = new TerminalPanel(hub);
    this.show(null);
  }

  get sessionId(): string | null {
    return this.#id;
  }

  show(id: string | null): void {
    this.#unfollow?.();
    this.#unfollow = null;
    this.#id = id;
    this.#screen = null;
    this.#turnCosts = new Map();
    this.#streamEnded = false;
    this.#sawEnded = false;
    this.#terminal.show();
    if (!id) {
      this.element.replaceChildren(el('p', { class: 'empty' }, 'Pick a session, or start one.'));
      return;
    }
    this.#timeline = new Timeline(this.#onChannelMessage, (turnId) =>
      turnChanges(this.#hub, turnId),
    );
    this.element.replaceChildren(
      this.#summary,
      this.#blocked,
      this.#terminal.element,
      el('h3', {}, 'Timeline'),
      this.#timeline.element,
      this.#messageBox(id),
    );
    this.#follow(id);
    this.render();
  }

  /** Shows the latest state of the open session. */
  render(): void {
    if (!this.#id) return;
    const session = this.#state.sessions.get(this.#id);
    this.#terminal.render(session);
    if (!session) {
      this.#summary.replaceChildren(
        el('h2', {}, `Session ${this.#id}`),
        this.#state.loaded ? 'The hub does not know this session.' : 'Loading...',
      );
      return;
    }
    if (ended(session)) this.#sawEnded = true;
    else if (this.#streamEnded && this.#sawEnded) {
      // Resumed: stream again from what the timeline last showed.
      this.#streamEnded = this.#sawEnded = false;
      this.#follow(session.id);
    }
    this.#renderSummary(session);
    this.#renderBlocked(session);
  }

  /** Streams the session's run from where its timeline left off. */
  #follow(id: string): void {
    this.#unfollow?.();
    this.#unfollow = followTimeline(
      this.#hub,
      id,
      this.#timeline,
      () => {
        this.#unfollow = null;
        this.#streamEnded = true;
      },
      (turn) => this.#turned(id, turn),
    );
  }

  /** Counts a completed turn's cost in the session's, and shows it. */
  #turned(id: string, turn: Turn): void {
    if (id !== this.#id || turn.completedAt === null) return;
    this.#turnCosts.set(turn.id, turn.costUsd ?? 0);
    const session = this.#state.sessions.get(id);
    if (session) this.#renderSummary(session);
    this.#onTurn();
  }

  /**
   * What the session's completed turns cost: the hub's figure, or the sum of the turns delivered
   * where it does not count them all yet; null before the first completed turn.
   */
  /** Links to the session that started it and to those it started (the orchestration tools). */
  #family(session: Session): (HTMLElement | null)[] {
    const link = (id: string, name: string | null) =>
      el('a', { href: `#${encodeURIComponent(id)}` }, name ?? id.slice(0, 8));
    const children = [...this.#state.sessions.values()].filter(
      (other) => other.parent?.id === session.id,
    );
    return [
      ...(session.parent
        ? [
            el('dt', {}, 'parent'),
            el('dd', { class: 'parent' }, link(session.parent.id, session.parent.name ?? null)),
          ]
        : []),
      ...(children.length > 0
        ? [
            el('dt', {}, 'children'),
            el(
              'dd',
              { class: 'children' },
              ...children.flatMap((child, i) => [
                i > 0 ? ', ' : null,
                link(child.id, child.name ?? null),
                ` (${child.status})`,
              ]),
            ),
          ]
        : []),
    ];
  }

  #costOf(session: Session): number | null {
    if (this.#turnCosts.size === 0) return session.costUsd ?? null;
    let sum = 0;
    for (const cost of this.#turnCosts.values()) sum += cost;
    return Math.max(session.costUsd ?? 0, sum);
  }

  #renderSummary(session: Session): void {
    const item = this.#state.attentionOf(session.id);
    const live = !ended(session);
    const id = session.id;
    const put = (changed: Session) => this.#state.putSession(changed);
    fill(
      this.#summary,
      el(
        'h2',
        {},
        sessionLabel(session),
        ' ',
        el('span', { class: `badge status-${session.status}` }, session.status),
        session.origin === 'EXTERNAL' ? ' ' : null,
        originBadge(session),
        item
          ? el(
              'span',
              { class: 'waited' },
              ` ${item.reason.toLowerCase()} for `,
              elapsed(item.since),
            )
          : null,
      ),
      el(
        'dl',
        {},
        el('dt', {}, 'id'),
        el('dd', {}, session.id),
        el('dt', {}, 'folder'),
        el('dd', {}, session.cwd),
        el('dt', {}, 'runtime'),
        el('dd', { class: 'runtime' }, session.runtime),
        ...(session.origin === 'EXTERNAL'
          ? [
              el('dt', {}, 'origin'),
              el('dd', { class: 'origin' }, 'EXTERNAL: started by hand'),
              el('dt', {}, 'pane'),
              el('dd', { class: 'pane' }, paneText(session)),
            ]
          : []),
        ...(session.attachCommand
          ? [
              el('dt', {}, 'attach'),
              el('dd', {}, el('code', { class: 'attach' }, session.attachCommand)),
            ]
          : []),
        ...(session.node ? [el('dt', {}, 'node'), el('dd', {}, session.node)] : []),
        ...this.#family(session),
        el('dt', {}, 'model'),
        el('dd', {}, session.model ?? 'default'),
        el('dt', {}, 'cost'),
        costTerm(this.#costOf(session)),
        ...(session.limitedUntil
          ? [
              el('dt', {}, 'usage limit'),
              el(
                'dd',
                { class: 'limited-until' },
                `its account's limit resets ${new Date(session.limitedUntil as string).toLocaleString()}; messages wait until then`,
              ),
            ]
          : []),
        el('dt', {}, 'permissions'),
        el('dd', {}, session.permissionMode ?? 'default'),
        session.restartCount ? el('dt', {}, 'restarts') : null,
        session.restartCount ? el('dd', {}, String(session.restartCount)) : null,
      ),
      session.error ? el('pre', { class: 'error' }, session.error) : null,
      el(
        'div',
        { class: 'controls' },
        button(
          'Interrupt',
          async () =>
            put((await this.#hub.request(InterruptSessionMutation, { id })).interruptSession),
          showError,
          { disabled: !live },
        ),
        button(
          'Stop',
          async () => put((await this.#hub.request(StopSessionMutation, { id })).stopSession),
          showError,
          { disabled: !live },
        ),
        button(
          'Resume',
          async () => put((await this.#hub.request(ResumeSessionMutation, { id })).resumeSession),
          showError,
          { disabled: live },
        ),
        goToPaneButton(this.#hub, this.#state, session),
      ),
    );
  }

  #renderBlocked(session: Session): void {
    this.#blocked.hidden = session.status !== 'BLOCKED';
    if (session.status !== 'BLOCKED') {
      this.#screen = null;
      return;
    }
    if (this.#screen === null) {
      this.#screen = 'reading the screen...';
      this.#readScreen(session.id).catch(showError);
    }
    const keys = dialogKeys.map((key) =>
      button(
        key,
        async () => {
          const { sendKeys } = await this.#hub.request(SendKeysMutation, {
            sessionId: session.id,
            keys: [key],
          });
          this.#screen = sendKeys.screen;
          this.#state.putSession(sendKeys);
        },
        showError,
        { class: 'key' },
      ),
    );
    this.#blocked.replaceChildren(
      el('h3', {}, `Blocked: ${session.blockedReason ?? 'waiting on the screen'}`),
      el('pre', { class: 'screen' }, this.#screen),
      el(
        'div',
        { class: 'keys' },
        ...keys,
        button('Read again', () => this.#readScreen(session.id), showError),
      ),
    );
  }

  async #readScreen(id: string): Promise<void> {
    const { session } = await this.#hub.request(ScreenQuery, { id });
    if (id !== this.#id) return;
    this.#screen = session?.screen ?? '';
    this.render();
  }

  #messageBox(sessionId: string): HTMLFormElement {
    const text = el('textarea', {
      id: 'message',
      name: 'message',
      rows: '4',
      placeholder: 'A message for claude (Ctrl+Enter sends)',
      'aria-label': 'Message',
    });
    const status = el('p', { class: 'message-status', role: 'status' });
    const reply = el('div', { class: 'ask-reply' });
    const form = el('form', { class: 'message-box' }, text);

    const send = async () => {
      if (!text.value.trim()) return;
      const { enqueueMessage } = await this.#hub.request(EnqueueMessageMutation, {
        sessionId,
        text: text.value,
      });
      text.value = '';
      status.textContent = `Message ${enqueueMessage.status.toLowerCase()}${enqueueMessage.error ? `: ${enqueueMessage.error}` : ''}.`;
    };
    const ask = async () => {
      if (!text.value.trim()) return;
      const question = text.value;
      status.textContent = 'Asked; waiting for the end of the turn...';
      reply.replaceChildren();
      const { ask: answer } = await this.#hub.request(AskMutation, { sessionId, text: question });
      if (text.value === question) text.value = '';
      status.textContent = '';
      switch (answer.__typename) {
        case 'AskReply':
          reply.replaceChildren(
            el('div', { class: 'label' }, `Reply after ${duration(answer.durationMs)}`),
            el('pre', {}, answer.reply ?? '(no text)'),
          );
          return;
        case 'AskTimeout':
          showNotice(
            `No reply within ${duration(answer.waitedMs)}; the message is ${answer.message.status.toLowerCase()} and goes on.`,
          );
          return;
        case 'AskFailed':
          showNotice(`The message could not be delivered: ${answer.message.error ?? ''}`, 'error');
          return;
      }
    };

    const sendButton = button('Send', send, showError, { class: 'send' });
    form.append(
      el('div', { class: 'actions' }, sendButton, button('Ask', ask, showError, { class: 'ask' })),
      status,
      reply,
    );
    form.addEventListener('submit', (event) => event.preventDefault());
    text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        sendButton.click();
      }
    });
    return form;
  }
}

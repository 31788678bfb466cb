/**
 * The open session's live terminal: xterm.js fed by the sessionTerminal subscription while the
 * session runs, read-only at the pane's size until the person takes control; then their keys
 * and pastes are typed into the pane, and the pane takes the panel's size while no terminal
 * attached in tmux decides it.
 */
import '@xterm/xterm/css/xterm.css';
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';
import type { DashboardSessionTerminalSubscription } from '../../src/gql/graphql.js';
import { el } from './dom.js';
import type { HubClient } from './hub-client.js';
import type { Session } from './hub-state.js';
import { showError } from './notice.js';
import {
  ResizeTerminalMutation,
  SendTerminalInputMutation,
  SessionTerminalSubscription,
} from './operations.js';
import { TerminalInput } from './terminal-input.js';

type TerminalChunk = DashboardSessionTerminalSubscription['sessionTerminal'];

/** The font size of a terminal that fits, and of one taken control of. */
const readableFontSize = 13;
/** A wide pane's font shrinks to fit the panel down to this; what is wider scrolls in the panel. */
const minFontSize = 7;
/** The hub's bounds for resizeTerminal. */
const paneCols = { min: 20, max: 1000 };
const paneRows = { min: 5, max: 500 };
/** Lines kept above the screen (the SNAPSHOT's history and what scrolls off after it). */
const scrollback = 5000;
/** The room xterm keeps for its scroll bar right of the screen, as its fit addon counts it. */
const scrollbarWidth = 14;
/** How long the panel's size must hold still before the pane follows it. */
const resizeSettleMs = 250;

/** TMUX sessions, and EXTERNAL ones running in tmux; HEADLESS ones have no terminal. */
export function hasTerminal(session: Session): boolean {
  return session.runtime !== 'HEADLESS' && (session.origin !== 'EXTERNAL' || !!session.tmuxPane);
}

/** The statuses in which the session's tmux session is there to watch. */
const running = (session: Session) =>
  session.status !== 'STOPPED' && session.status !== 'CRASHED' && session.status !== 'UNREACHABLE';

const clamp = (value: number, { min, max }: { min: number; max: number }) =>
  Math.min(max, Math.max(min, value));

/**
 * The program's queries (device attributes, cursor position, modes, colours) went to tmux too,
 * which answered them: an answer from this terminal would be typed into the pane as keys.
 */
function answerNoQueries(term: Terminal): void {
  const unanswered = () => true;
  for (const id of [
    { final: 'c' },
    { prefix: '>', final: 'c' },
    { final: 'n' },
    { prefix: '?', final: 'n' },
    { intermediates: '$', final: 'p' },
    { prefix: '?', intermediates: '$', final: 'p' },
    { prefix: '>', final: 'q' },
  ]) {
    term.parser.registerCsiHandler(id, unanswered);
  }
  term.parser.registerDcsHandler({ intermediates: '$', final: 'q' }, unanswered);
  for (const colour of [4, 10, 11, 12]) {
    term.parser.registerOscHandler(colour, (data) => data.includes('?'));
  }
}

/** How the terminal looks and keeps its lines. */
const terminalOptions = {
  disableStdin: true,
  fontSize: readableFontSize,
  fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
  scrollback,
  cursorInactiveStyle: 'outline',
} as const;

/** Focus reports xterm sends for the page's focus, not the person's keys. */
const focusReports = new Set(['\x1b[I', '\x1b[O']);

export class TerminalPanel {
  readonly element = el('section', { class: 'terminal-panel', hidden: true });
  readonly #hub: HubClient;
  readonly #frame = el('div', { class: 'terminal-frame' });
  readonly #status = el('span', { class: 'terminal-status', role: 'status' });
  readonly #switch = el('input', {
    type: 'checkbox',
    role: 'switch',
    name: 'take-control',
    disabled: true,
  });
  /** Each session's input, kept when another is opened so what was typed still goes, in order. */
  readonly #inputs = new Map<string, TerminalInput>();
  #session: Session | null = null;
  #term: Terminal | null = null;
  #fit: FitAddon | null = null;
  /** xterm.js, loaded the first time a terminal is shown (most pages never show one). */
  #xterm: Promise<void> | null = null;
  /** Ends the subscription; set while it is open. */
  #unsubscribe: (() => void) | null = null;
  /** Whether a chunk arrived since the subscription opened. */
  #live = false;
  /** The status the session had when its stream last stopped; null before it ever did. */
  #stoppedIn: Session['status'] | null = null;
  /** Whether the status changed since the stream stopped: only then is it tried again. */
  #changedSince = false;
  /** Why the stream stopped, shown until it runs again. */
  #stopNote = '';
  /**
   * Chunks not yet written: only a SNAPSHOT waiting for the writes before it to be drawn, and
   * the OUTPUT after it. A newer SNAPSHOT replaces them all, so the queue stays that short.
   */
  #queue: TerminalChunk[] = [];
  #flushing = false;
  /** Who sets the pane's size: the pane itself (read-only), this panel, or a tmux client. */
  #sizedBy: 'pane' | 'panel' | 'tmux' = 'pane';
  /** The size this panel last gave the pane, `cols x rows`, until its snapshot shows it. */
  #sizing: string | null = null;
  #resizeTimer: ReturnType<typeof setTimeout> | undefined;
  #observedWidth = 0;
  readonly #observer = new ResizeObserver(([entry]) => {
    const width = Math.round(entry?.contentRect.width ?? 0);
    if (width === this.#observedWidth) return;
    this.#observedWidth = width;
    clearTimeout(this.#resizeTimer);
    this.#resizeTimer = setTimeout(() => this.#layout(), resizeSettleMs);
  });

  constructor(hub: HubClient) {
    this.#hub = hub;
    this.#switch.addEventListener('change', () => this.#setControl(this.#switch.checked));
    this.element.append(
      el(
        'div',
        { class: 'terminal-bar' },
        el('h3', {}, 'Terminal'),
        el('label', { class: 'take-control' }, this.#switch, ' Take control'),
        this.#status,
      ),
      this.#frame,
    );
    this.#observer.observe(this.element);
  }

  /** Starts over for another session (or none): the stream and the terminal of the last end. */
  show(): void {
    this.#close();
    this.#session = null;
    this.#stoppedIn = null;
    this.#changedSince = false;
    this.#stopNote = '';
    this.element.hidden = true;
  }

  /** Follows the open session's latest state: streams while it runs, again after it ran again. */
  render(session: Session | undefined): void {
    this.#session = session ?? null;
    this.element.hidden = !session || !hasTerminal(session);
    if (!session || this.element.hidden) {
      this.#close();
      return;
    }
    if (this.#stoppedIn !== null && session.status !== this.#stoppedIn) this.#changedSince = true;
    if (!this.#unsubscribe && running(session) && (this.#stoppedIn === null || this.#changedSince))
      this.#subscribe(session.id);
    this.#renderStatus();
  }

  #subscribe(id: string): void {
    this.#open();
    this.#live = false;
    this.#stopNote = '';
    this.#unsubscribe = this.#hub.subscribe(
      SessionTerminalSubscription,
      { id },
      {
        next: ({ sessionTerminal }) => this.#receive(sessionTerminal),
        error: (error) =>
          this.#stopped(
            `No terminal: ${error.message}${error.code ? ` (${error.code})` : ''}. It is tried again when the session's status changes.`,
          ),
        complete: () =>
          this.#stopped(
            "The terminal ended with the session's tmux session; it comes back when the session runs again.",
          ),
      },
    );
  }

  #stopped(note: string): void {
    this.#unsubscribe = null;
    this.#live = false;
    this.#stoppedIn = this.#session?.status ?? null;
    this.#changedSince = false;
    this.#stopNote = note;
    this.#setControl(false);
    this.#renderStatus();
  }

  /**
   * A terminal in the frame, made when first needed, since xterm measures its font there. xterm
   * is a chunk of its own, loaded then: what arrives meanwhile waits in the queue.
   */
  #open(): void {
    if (this.#term || this.#xterm) return;
    this.#xterm = Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit')]).then(
      ([{ Terminal }, { FitAddon }]) => {
        this.#xterm = null;
        // Closed while it loaded: the next subscription opens one.
        if (this.#unsubscribe && !this.#term)
          this.#make(new Terminal(terminalOptions), new FitAddon());
      },
      (error: unknown) => {
        this.#xterm = null;
        showError(`The terminal could not be loaded: ${(error as Error).message}`);
      },
    );
  }

  #make(term: Terminal, fit: FitAddon): void {
    term.loadAddon(fit);
    answerNoQueries(term);
    term.open(this.#frame);
    term.onData((data) => {
      const id = this.#session?.id;
      if (id && this.#switch.checked && !focusReports.has(data)) this.#input(id).type(data);
    });
    // A paste goes as one paste that the hub brackets if claude asked for it, never as keys
    // xterm bracketed itself: caught on the way down, before xterm's own listener hears it.
    term.element?.addEventListener(
      'paste',
      (event) => {
        const id = this.#session?.id;
        if (!id || !this.#switch.checked) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        this.#input(id).paste(event.clipboardData?.getData('text/plain') ?? '');
      },
      { capture: true },
    );
    this.#term = term;
    this.#fit = fit;
    this.#drain();
  }

  /** Ends the stream and removes the terminal; input already typed still goes. */
  #close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#live = false;
    this.#queue = [];
    this.#flushing = false;
    this.#switch.checked = false;
    this.#sizedBy = 'pane';
    clearTimeout(this.#resizeTimer);
    this.#term?.dispose();
    this.#term = null;
    this.#fit = null;
    this.#frame.replaceChildren();
    delete this.element.dataset.cols;
    delete this.element.dataset.rows;
  }

  #input(sessionId: string): TerminalInput {
    let input = this.#inputs.get(sessionId);
    if (!input) {
      input = new TerminalInput(
        (data, paste) => this.#hub.request(SendTerminalInputMutation, { sessionId, data, paste }),
        showError,
      );
      this.#inputs.set(sessionId, input);
    }
    return input;
  }

  #receive(chunk: TerminalChunk): void {
    if (chunk.kind === 'SNAPSHOT') this.#queue = [chunk];
    else this.#queue.push(chunk);
    this.#drain();
    if (!this.#live) {
      this.#live = true;
      this.#renderStatus();
    }
    // A hub that came back (a new FIRST) forgot the size this panel gave the pane.
    if (chunk.reason === 'FIRST' && this.#switch.checked) void this.#fitPane();
  }

  /**
   * Writes the queue in order. A SNAPSHOT resets the terminal, so it waits until xterm has
   * drawn every write before it (xterm parses writes later, in its own loop).
   */
  #drain(): void {
    const term = this.#term;
    if (!term || this.#flushing) return;
    for (let chunk = this.#queue.shift(); chunk; chunk = this.#queue.shift()) {
      if (chunk.kind === 'OUTPUT') {
        term.write(chunk.data);
        continue;
      }
      const snapshot = chunk;
      this.#flushing = true;
      term.write('', () => {
        if (term !== this.#term) return;
        this.#flushing = false;
        term.reset();
        term.resize(snapshot.cols, snapshot.rows);
        term.write(snapshot.data);
        this.element.dataset.cols = String(snapshot.cols);
        this.element.dataset.rows = String(snapshot.rows);
        this.#fitFont();
        this.#renderStatus();
        this.#drain();
      });
      return;
    }
  }

  /**
   * The largest font, up to the readable size, at which the pane's width fits the panel; not
   * below the minimum, where the rest scrolls inside the frame.
   */
  #fitFont(): void {
    const term = this.#term;
    const screen = term?.element?.querySelector<HTMLElement>('.xterm-screen');
    if (!term || !screen) return;
    const available = this.#frame.clientWidth - scrollbarWidth;
    const width = () => screen.getBoundingClientRect().width;
    if (available <= 0 || width() === 0) return;
    let size = clamp(
      Math.floor(((term.options.fontSize ?? readableFontSize) * available * 2) / width()) / 2,
      {
        min: minFontSize,
        max: readableFontSize,
      },
    );
    term.options.fontSize = size;
    while (size > minFontSize && width() > available) {
      size = Math.max(minFontSize, size - 0.5);
      term.options.fontSize = size;
    }
  }

  #setControl(on: boolean): void {
    this.#switch.checked = on && this.#live;
    const term = this.#term;
    if (term) term.options.disableStdin = !this.#switch.checked;
    this.element.classList.toggle('in-control', this.#switch.checked);
    if (this.#switch.checked) {
      term?.focus();
      void this.#fitPane();
    } else {
      term?.blur();
      this.#sizedBy = 'pane';
      this.#fitFont();
    }
    this.#renderStatus();
  }

  /**
   * After the panel changed size: the pane follows it while in control (asked again even when
   * a tmux client decided the size last time: it may have left since), else the font does.
   */
  #layout(): void {
    if (this.#switch.checked) void this.#fitPane();
    else this.#fitFont();
  }

  /**
   * Asks the hub to give the pane the size that fills the panel at the readable font. The pane
   * redraws, and a RESIZED snapshot brings the new size. A person's terminal attached in tmux
   * keeps its own size: then the pane's is kept and the font fits it.
   */
  async #fitPane(): Promise<void> {
    const term = this.#term;
    const sessionId = this.#session?.id;
    if (!term || !this.#fit || !sessionId) return;
    term.options.fontSize = readableFontSize;
    const proposed = this.#fit.proposeDimensions();
    if (!proposed) {
      this.#fitFont();
      return;
    }
    const [cols, rows] = [clamp(proposed.cols, paneCols), clamp(proposed.rows, paneRows)];
    // Until the hub answers, the status says the pane is being sized, not the old size.
    this.#sizedBy = 'panel';
    this.#sizing = `${cols} x ${rows}`;
    this.#renderStatus();
    try {
      const { resizeTerminal } = await this.#hub.request(ResizeTerminalMutation, {
        sessionId,
        cols,
        rows,
      });
      if (term !== this.#term || !this.#switch.checked) return;
      this.#sizedBy = resizeTerminal ? 'panel' : 'tmux';
      this.#sizing = resizeTerminal ? `${cols} x ${rows}` : null;
    } catch (error) {
      if (term !== this.#term) return;
      this.#sizedBy = 'pane';
      showError(error);
    }
    // Resized, the pane's RESIZED snapshot fits the font (already right if the size was).
    if (this.#sizedBy !== 'panel') this.#fitFont();
    this.#renderStatus();
  }

  #renderStatus(): void {
    this.#switch.disabled = !this.#live;
    const session = this.#session;
    const { cols, rows } = this.element.dataset;
    const size = cols ? `, ${cols} x ${rows}` : '';
    // The pane's RESIZED snapshot is still on its way: the size shown would be the old one.
    const sizing = this.#sizedBy === 'panel' && this.#sizing !== `${cols} x ${rows}`;
    let text: string;
    if (!session) text = '';
    else if (!this.#unsubscribe) {
      text = this.#stopNote || 'The session is not running: its terminal shows while it runs.';
    } else if (!this.#live) text = 'Connecting to the terminal...';
    else if (!this.#switch.checked) text = `Read-only${size}: take control to type.`;
    else if (this.#sizedBy === 'tmux') {
      text = `In control${size}: a terminal attached in tmux sets the size.`;
    } else if (sizing) text = `In control: sizing the pane to ${this.#sizing}...`;
    else text = `In control${size}: your keys go to the session.`;
    this.#status.textContent = text;
    this.element.classList.toggle('stopped', !!session && !this.#unsubscribe);
  }
}

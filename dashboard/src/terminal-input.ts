/**
 * A person's input to one session's terminal, in order: one sendTerminalInput in flight at a
 * time, and what is typed meanwhile joined into the next one. No DOM and no client here: the
 * panel hands it the mutation to send with.
 */

/** The hub's limit on one sendTerminalInput (`maxTerminalInputChars`). */
export const maxInputChars = 65_536;

/**
 * At most this much waits behind the request in flight (a hub that stopped answering, a paste
 * or two); what comes beyond it is refused with an error, so nothing is typed out of order.
 */
export const maxPendingChars = 4 * maxInputChars;

interface Input {
  data: string;
  /** One paste: never joined with keys, so the hub can bracket it as a whole. */
  readonly paste: boolean;
}

export class TerminalInput {
  readonly #send: (data: string, paste: boolean) => Promise<unknown>;
  readonly #failed: (error: unknown) => void;
  readonly #pending: Input[] = [];
  #pendingChars = 0;
  #sending = false;

  /**
   * `send` types one input (keys or a paste); `failed` hears of a refused input, or one that
   * `send` rejected: what was typed after it is dropped then, as it would land out of context.
   */
  constructor(
    send: (data: string, paste: boolean) => Promise<unknown>,
    failed: (error: unknown) => void,
  ) {
    this.#send = send;
    this.#failed = failed;
  }

  /** Keys as the terminal produced them (xterm's onData): characters and escape sequences. */
  type(data: string): void {
    const last = this.#pending.at(-1);
    if (last && !last.paste && last.data.length + data.length <= maxInputChars) {
      if (!this.#reserve(data)) return;
      last.data += data;
      void this.#pump();
      return;
    }
    this.#add({ data, paste: false });
  }

  /** Text the person pasted: one paste, bracketed by the hub when the program asked for that. */
  paste(text: string): void {
    if (text === '') return;
    if (text.length > maxInputChars) {
      this.#failed(
        new Error(`a paste of ${text.length} characters is too long: at most ${maxInputChars}`),
      );
      return;
    }
    this.#add({ data: text, paste: true });
  }

  #add(input: Input): void {
    if (!this.#reserve(input.data)) return;
    this.#pending.push(input);
    void this.#pump();
  }

  #reserve(data: string): boolean {
    if (this.#pendingChars + data.length > maxPendingChars) {
      this.#failed(
        new Error(`the terminal has ${this.#pendingChars} characters still to type; wait for them`),
      );
      return false;
    }
    this.#pendingChars += data.length;
    return true;
  }

  async #pump(): Promise<void> {
    if (this.#sending) return;
    this.#sending = true;
    for (let input = this.#pending.shift(); input; input = this.#pending.shift()) {
      this.#pendingChars -= input.data.length;
      try {
        await this.#send(input.data, input.paste);
      } catch (error) {
        this.#pending.length = 0;
        this.#pendingChars = 0;
        this.#failed(error);
      }
    }
    this.#sending = false;
  }
}

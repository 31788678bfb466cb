/**
 * How many rows a long list shows. A fleet's thousand sessions, and a queue as long, drawn whole
 * made every draw lay out a thousand rows and the side panel a page of scrolling per list; a
 * list shows its first rows (the queue's longest waiting, the newest sessions) and a button that
 * shows the next ones. The filter finds the rest.
 */
import { el } from './dom.js';

export class ListLimit {
  readonly #step: number;
  #limit: number;
  readonly #row: HTMLLIElement;
  readonly #button: HTMLButtonElement;

  /** Shows `step` rows, and `step` more at each press of its button, after which `redraw` runs. */
  constructor(step: number, redraw: () => void) {
    this.#step = this.#limit = step;
    this.#button = el('button', { type: 'button', class: 'link' });
    this.#button.addEventListener('click', () => {
      this.#limit += this.#step;
      redraw();
    });
    this.#row = el('li', { class: 'more' }, this.#button);
  }

  /** Back to the first `step` rows (when what the list shows changes, as with a new filter). */
  reset(): void {
    this.#limit = this.#step;
  }

  /** The items shown, and after them the row with the button when some are left out. */
  take<T>(items: readonly T[]): { shown: readonly T[]; more: HTMLLIElement | null } {
    const left = items.length - this.#limit;
    if (left <= 0) return { shown: items, more: null };
    this.#button.textContent = `Show ${Math.min(left, this.#step).toLocaleString('en-US')} more (${left.toLocaleString('en-US')} not shown)`;
    return { shown: items.slice(0, this.#limit), more: this.#row };
  }
}

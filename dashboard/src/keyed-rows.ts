/**
 * A long list drawn again at every change (a thousand sessions, a queue as long) without making
 * every row again: a row is made anew only when what it is drawn from changed (compared by
 * identity: the page's state replaces a session or an item when it changes), and the list's
 * children are moved only where the order changed.
 */
export class KeyedRows {
  static readonly #lists = new WeakMap<HTMLElement, KeyedRows>();

  /** The rows of `list` as last drawn. */
  static of(list: HTMLElement): KeyedRows {
    let rows = KeyedRows.#lists.get(list);
    if (!rows) KeyedRows.#lists.set(list, (rows = new KeyedRows()));
    return rows;
  }

  #drawn = new Map<string, { readonly from: readonly unknown[]; readonly row: HTMLElement }>();
  #drawing = new Map<string, { readonly from: readonly unknown[]; readonly row: HTMLElement }>();

  /** The row for `key`: the one drawn last time if it was drawn from the same values, else made. */
  row(key: string, from: readonly unknown[], make: () => HTMLElement): HTMLElement {
    const last = this.#drawn.get(key);
    const row =
      last && last.from.length === from.length && last.from.every((value, i) => value === from[i])
        ? last.row
        : make();
    this.#drawing.set(key, { from, row });
    return row;
  }

  /** Makes `rows` the list's children, in order; rows not asked for since the last call are let go. */
  place(list: HTMLElement, rows: readonly HTMLElement[]): void {
    this.#drawn = this.#drawing;
    this.#drawing = new Map();
    const wanted = new Set<Node>(rows);
    for (const child of [...list.childNodes]) if (!wanted.has(child)) child.remove();
    let next = list.firstChild;
    for (const row of rows) {
      if (row === next) next = next.nextSibling;
      else list.insertBefore(row, next);
    }
  }
}

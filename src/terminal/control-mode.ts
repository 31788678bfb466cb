/**
 * tmux control mode (`tmux -C`), read as data: what a control client prints, split into the
 * pane output, the replies to its own commands and the notifications it cares about. Pure: the
 * process is driven by TerminalWatch.
 */

/** What a control client prints, one line at a time. */
export type ControlMessage =
  /** Bytes a pane wrote (`%output`, or `%extended-output` under pause-after), unescaped. */
  | { readonly kind: 'output'; readonly pane: string; readonly data: Buffer }
  /** The reply to one command this client sent, in the order sent; `error` for `%error`. */
  | { readonly kind: 'reply'; readonly lines: readonly Buffer[]; readonly error: boolean }
  /** A `%name args` notification other than output, e.g. `%layout-change`, `%pause`. */
  | { readonly kind: 'notice'; readonly name: string; readonly args: string }
  /** The client is detached (`%exit`, with tmux's reason if any). */
  | { readonly kind: 'exit'; readonly reason: string };

const newline = 0x0a;
const backslash = 0x5c;

/**
 * `%output` data: tmux writes bytes below 32 and the backslash as three octal digits after a
 * backslash, everything else as it is.
 */
export function unescapeOutput(data: Buffer): Buffer {
  if (!data.includes(backslash)) return data;
  const out = Buffer.allocUnsafe(data.length);
  let length = 0;
  for (let i = 0; i < data.length; i += 1) {
    const byte = data[i]!;
    if (byte === backslash && isOctal(data, i + 1)) {
      out[length++] = (data[i + 1]! - 48) * 64 + (data[i + 2]! - 48) * 8 + (data[i + 3]! - 48);
      i += 3;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

function isOctal(data: Buffer, at: number): boolean {
  for (let i = at; i < at + 3; i += 1) {
    const byte = data[i];
    if (byte === undefined || byte < 48 || byte > 55) return false;
  }
  return true;
}

/**
 * Splits a control client's stdout into messages. Feed it chunks as they come; a line split
 * between chunks is kept until its end arrives. Replies to commands other clients started (the
 * attach itself) are dropped: tmux marks this client's own with flag 1.
 */
export class ControlModeReader {
  #partial: Buffer[] = [];
  /** The `%begin` line's `time number` of the reply being read, and its lines. */
  #block: { readonly id: string; readonly ours: boolean; readonly lines: Buffer[] } | null = null;

  feed(chunk: Buffer): ControlMessage[] {
    const messages: ControlMessage[] = [];
    let start = 0;
    for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, start)) {
      let line = chunk.subarray(start, end);
      if (this.#partial.length > 0) {
        line = Buffer.concat([...this.#partial, line]);
        this.#partial = [];
      }
      const message = this.#line(line);
      if (message) messages.push(message);
      start = end + 1;
    }
    if (start < chunk.length) this.#partial.push(Buffer.from(chunk.subarray(start)));
    return messages;
  }

  #line(line: Buffer): ControlMessage | null {
    if (this.#block) {
      const closing = /^%(end|error) (\d+ \d+) (\d+)$/.exec(latin1Head(line, 64));
      if (!closing || closing[2] !== this.#block.id) {
        this.#block.lines.push(line);
        return null;
      }
      const block = this.#block;
      this.#block = null;
      return block.ours
        ? { kind: 'reply', lines: block.lines, error: closing[1] === 'error' }
        : null;
    }
    if (line[0] !== 0x25) return null; // '%': anything else is outside a block, and not tmux's
    const head = latin1Head(line, 64);
    const begin = /^%begin (\d+ \d+) (\d+)$/.exec(head);
    if (begin) {
      this.#block = { id: begin[1]!, ours: (Number(begin[2]) & 1) === 1, lines: [] };
      return null;
    }
    if (head.startsWith('%output ')) {
      const paneEnd = line.indexOf(0x20, 8);
      if (paneEnd === -1) return null;
      return {
        kind: 'output',
        pane: line.toString('latin1', 8, paneEnd),
        data: unescapeOutput(line.subarray(paneEnd + 1)),
      };
    }
    if (head.startsWith('%extended-output ')) {
      // `%extended-output %pane age ... : data`: the data follows the first ` : `.
      const paneEnd = line.indexOf(0x20, 17);
      const colon = line.indexOf(' : ');
      if (paneEnd === -1 || colon === -1) return null;
      return {
        kind: 'output',
        pane: line.toString('latin1', 17, paneEnd),
        data: unescapeOutput(line.subarray(colon + 3)),
      };
    }
    const text = line.toString('utf8');
    if (text === '%exit' || text.startsWith('%exit ')) {
      return { kind: 'exit', reason: text.slice(6) };
    }
    const space = text.indexOf(' ');
    return {
      kind: 'notice',
      name: text.slice(1, space === -1 ? undefined : space),
      args: space === -1 ? '' : text.slice(space + 1),
    };
  }
}

function latin1Head(line: Buffer, length: number): string {
  return line.toString('latin1', 0, Math.min(line.length, length));
}

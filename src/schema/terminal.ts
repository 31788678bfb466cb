import {
  SnapshotReason,
  TerminalChunkKind,
  type TerminalChunk,
} from '../terminal/terminal-viewer.js';
import { maxTerminalInputChars, terminalSize } from '../terminal/terminals.js';
import { audited } from './audit.js';
import { builder } from './builder.js';

const TerminalChunkKindRef = builder.enumType('TerminalChunkKind', {
  description: 'SNAPSHOT repaints the whole terminal; OUTPUT is what the pane drew next.',
  values: {
    SNAPSHOT: {
      value: TerminalChunkKind.Snapshot,
      description:
        'Resets the terminal and draws its history, screen, cursor and modes: write it to a terminal of cols x rows.',
    },
    OUTPUT: {
      value: TerminalChunkKind.Output,
      description: "The bytes the pane's program wrote next, as it wrote them.",
    },
  },
});

const SnapshotReasonRef = builder.enumType('TerminalSnapshotReason', {
  values: {
    FIRST: { value: SnapshotReason.First, description: "The subscription's first chunk." },
    BEHIND: {
      value: SnapshotReason.Behind,
      description:
        'The subscriber fell more than --terminal-buffer characters behind: this replaces what it missed.',
    },
    RESIZED: {
      value: SnapshotReason.Resized,
      description: "The window's size or layout changed.",
    },
    PANE: {
      value: SnapshotReason.Pane,
      description: "The session's claude now draws in another pane (it restarted in place).",
    },
  },
});

const TerminalChunkRef = builder.objectRef<TerminalChunk>('TerminalChunk').implement({
  description:
    "A piece of a session's terminal: write `data` to a terminal emulator (xterm.js) of `cols` x `rows`, in order.",
  fields: (t) => ({
    kind: t.field({ type: TerminalChunkKindRef, resolve: (chunk) => chunk.kind }),
    data: t.exposeString('data', {
      description: 'Text with its escape sequences (colours, cursor moves), as the pane drew it.',
    }),
    cols: t.exposeInt('cols', { description: "The pane's width in columns." }),
    rows: t.exposeInt('rows', { description: "The pane's height in rows." }),
    reason: t.field({
      type: SnapshotReasonRef,
      nullable: true,
      description: 'Why a SNAPSHOT was sent; null for OUTPUT.',
      resolve: (chunk) => chunk.reason,
    }),
  }),
});

builder.subscriptionField('sessionTerminal', (t) =>
  t.field({
    type: TerminalChunkRef,
    authScopes: { read: true },
    description:
      "The session's terminal as tmux draws it: a SNAPSHOT first, then every OUTPUT after it, streamed from tmux (control mode) as claude writes. A subscriber that falls --terminal-buffer characters behind gets a fresh SNAPSHOT instead of a backlog; the window's size changing sends one too. Ends when the session's tmux session ends. NO_TERMINAL for a HEADLESS session.",
    args: { id: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => ctx.hub.terminal(String(args.id)),
    resolve: (chunk) => chunk,
  }),
);

builder.mutationFields((t) => ({
  sendTerminalInput: t.field({
    type: 'Boolean',
    authScopes: { control: true },
    description: `Types a person's input into the session's terminal byte for byte, as their terminal would send it (keys, arrows as escape sequences, Escape, Ctrl-C as \\u0003): up to ${maxTerminalInputChars} characters. With paste, the text goes as one paste, bracketed when the program asked for that, line breaks as Enter. It counts as typing for --typing-grace. Inputs to a session are typed in the order they arrive. The audit trail records its length, not its text.`,
    args: {
      sessionId: t.arg.id({ required: true }),
      data: t.arg.string({ required: true }),
      paste: t.arg.boolean({ defaultValue: false }),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'sendTerminalInput',
        {
          sessionId: String(args.sessionId),
          detail: { length: args.data.length, paste: args.paste ?? false },
        },
        async () => {
          await ctx.hub.terminalInput(String(args.sessionId), args.data, args.paste ?? false);
          return true;
        },
      ),
  }),
  resizeTerminal: t.field({
    type: 'Boolean',
    authScopes: { control: true },
    description: `Gives the session's window the size of the browser that watches it (${terminalSize.minCols}-${terminalSize.maxCols} columns, ${terminalSize.minRows}-${terminalSize.maxRows} rows), while no person's tmux client is attached: true when it did, false when an attached terminal decides the size. Needs a sessionTerminal subscriber on this hub (TERMINAL_NOT_WATCHED otherwise); the size before is put back when the last one leaves.`,
    args: {
      sessionId: t.arg.id({ required: true }),
      cols: t.arg.int({ required: true }),
      rows: t.arg.int({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'resizeTerminal',
        { sessionId: String(args.sessionId), detail: { cols: args.cols, rows: args.rows } },
        () => ctx.hub.resizeTerminal(String(args.sessionId), args.cols, args.rows),
        (resized) => ({ outcome: resized ? 'ok' : 'attached' }),
      ),
  }),
}));

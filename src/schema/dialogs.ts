import type { DialogAnswer, DialogKey } from '../sessions/dialog-watch.js';
import { audited } from './audit.js';
import { builder } from './builder.js';
import { SessionRef } from './sessions.js';

/** The keys a dialog is answered with, by the names the runtimes press. */
const dialogKeyValues: Record<string, { value: DialogKey; description: string }> = {
  ENTER: { value: 'Enter', description: 'What "Enter to ..." offers; picks the choice under ❯.' },
  ESCAPE: { value: 'Escape', description: 'What "Esc to cancel" offers.' },
  TAB: { value: 'Tab', description: 'What "Tab to ..." offers (e.g. amend).' },
  SHIFT_TAB: { value: 'ShiftTab', description: 'What "shift+Tab to ..." offers.' },
  UP: { value: 'Up', description: 'Moves the cursor up the list.' },
  DOWN: { value: 'Down', description: 'Moves the cursor down the list.' },
  LEFT: { value: 'Left', description: 'Moves left (tabs of a dialog asking several questions).' },
  RIGHT: { value: 'Right', description: 'Moves right.' },
  SPACE: { value: 'Space', description: 'Ticks the choice under ❯ where several may be picked.' },
};

const DialogKeyRef = builder.enumType('DialogKey', {
  description: 'A key that answers a dialog.',
  values: dialogKeyValues,
});

const DialogChoiceRef = builder.inputType('DialogChoice', {
  description: 'How to answer a dialog: exactly one of option and key.',
  isOneOf: true,
  fields: (t) => ({
    option: t.int({
      description:
        'A choice of its list: the number it shows (`❯ 1. Yes`), or for a list without numbers its place from the top (1 is the first). The cursor is moved to it with Up or Down, then Enter is pressed.',
    }),
    key: t.field({ type: DialogKeyRef, description: "One key, as the dialog's hint names it." }),
  }),
});

builder.mutationFields((t) => ({
  answerDialog: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      "Answers the dialog on the session's screen (a turn BLOCKED with blockedReason DIALOG, a startup dialog, or any other), then reads the screen again: the session returned is BUSY again once the dialog is gone and its turn goes on. NO_DIALOG when the screen shows none; BAD_USER_INPUT for an option the dialog does not offer (the message lists those it does); NO_TERMINAL for a HEADLESS session.",
    args: {
      sessionId: t.arg.id({ required: true }),
      choice: t.arg({ type: DialogChoiceRef, required: true }),
    },
    resolve: (_root, args, ctx) => {
      const answer: DialogAnswer =
        args.choice.option != null ? { option: args.choice.option } : { key: args.choice.key! };
      return audited(
        ctx,
        'answerDialog',
        { sessionId: String(args.sessionId), detail: { ...answer } },
        () => ctx.hub.answerDialog(String(args.sessionId), answer),
      );
    },
  }),
}));

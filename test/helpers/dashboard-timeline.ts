import type { Page } from 'playwright-core';

/**
 * The rows of the session timeline a dashboard page shows, and what they say. `page` is called
 * each time, so the page may be opened after this is made (in a beforeAll).
 */
export function dashboardTimeline(page: () => Page) {
  /** A hook event's rows, by the event's name and, if given, a piece of their text. */
  const rows = (event: string, hasText?: string | RegExp) =>
    page().locator(`#timeline li[data-event="${event}"]`, hasText ? { hasText } : {});

  /** The assistant's text, whether it streamed (MessageDisplay) or came with Stop. */
  const assistant = (text: string) => page().locator('#timeline li.assistant', { hasText: text });

  /** A tool call's row, by its kind and a piece of its title. */
  const action = (kind: string, title: string) =>
    page().locator(`#timeline li.action[data-kind="${kind}"]`, { hasText: title });

  /** A turn's summary row, by its number. */
  const turnRow = (number: number) =>
    page().locator('#timeline li.turn', {
      has: page().locator('.label', { hasText: `turn ${number} ` }),
    });

  /** The seq of every event row; tool events show as actions instead. */
  const shownSeqs = async () =>
    (
      await page().$$eval('#timeline li[data-seq]', (items) =>
        items.map((item) => Number(item.getAttribute('data-seq'))),
      )
    ).sort((a, b) => a - b);

  /** Every action row: its id, latest phase and that phase's seq. */
  const shownActions = () =>
    page().$$eval('#timeline li.action', (items) =>
      items.map(
        (item) => `${item.dataset.actionId} ${item.dataset.phase} ${item.dataset.actionSeq}`,
      ),
    );

  /** Every turn summary row: its id and status. */
  const shownTurns = () =>
    page().$$eval('#timeline li.turn', (items) =>
      items.map((item) => `${item.dataset.turnId} ${item.dataset.status}`),
    );

  /** The highest seq of an action phase the page shows. */
  const lastActionSeq = async () =>
    Math.max(
      0,
      ...(await page().$$eval('#timeline li.action', (items) =>
        items.map((item) => Number(item.dataset.actionSeq)),
      )),
    );

  return {
    rows,
    assistant,
    action,
    turnRow,
    shownSeqs,
    shownActions,
    shownTurns,
    lastActionSeq,
  };
}

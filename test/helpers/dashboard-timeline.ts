import type { Page } from 'playwright-core';

/** Readers of the dashboard's timeline on the page `page()` gives when called. */
export function timelineOf(page: () => Page) {
  const rows = (event: string, hasText?: string | RegExp) =>
    page().locator(`#timeline li[data-event="${event}"]`, hasText ? { hasText } : {});

  /** The assistant's text, whether it streamed (MessageDisplay) or came with Stop. */
  const assistant = (text: string) => page().locator('#timeline li.assistant', { hasText: text });

  const connected = () =>
    page()
      .locator('#connection', { hasText: /^connected$/ })
      .waitFor();

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

  return { rows, assistant, connected, action, turnRow, shownSeqs };
}

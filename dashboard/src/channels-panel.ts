/**
 * The open channels: each one's name, description, listeners and when a session last wrote to
 * it. Listing never listens (a listener would keep a channel open), so the list is read again
 * every few seconds, and soon after the open session writes to a channel.
 */
import type { DashboardChannelsQuery } from '../../src/gql/graphql.js';
import { elapsed } from './clock.js';
import { el, fill } from './dom.js';
import type { HubClient } from './hub-client.js';
import { ChannelsQuery } from './panel-operations.js';

type Channel = DashboardChannelsQuery['channels'][number];

/** How often the list is read again while the page is open. */
const pollMs = 5000;
/** Reads asked for within this of each other are one read. */
const settleMs = 200;

function channelRow(channel: Channel): HTMLLIElement {
  const listeners = `${channel.listeners} listener${channel.listeners === 1 ? '' : 's'}`;
  return el(
    'li',
    { class: 'channel', 'data-channel': channel.name },
    el(
      'div',
      {},
      el('strong', { class: 'name' }, `#${channel.name}`),
      ' ',
      el(
        'span',
        {
          class: `badge listeners${channel.listeners > 0 ? ' heard' : ''}`,
        },
        listeners,
      ),
    ),
    channel.description ? el('div', { class: 'description' }, channel.description) : null,
    el(
      'div',
      { class: 'last' },
      ...(channel.lastMessageAt
        ? ['last message ', elapsed(channel.lastMessageAt), ' ago']
        : ['no message yet']),
    ),
  );
}

export function channelsPanel(hub: HubClient): { element: HTMLElement; refresh(): void } {
  const element = el(
    'ul',
    { id: 'channels', class: 'cards' },
    el('li', { class: 'empty' }, 'Loading...'),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  /** A read was asked for since the last one began. */
  let asked = false;

  function readIn(ms: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => void read(), ms);
  }

  async function read(): Promise<void> {
    reading = true;
    asked = false;
    try {
      const { channels } = await hub.request(ChannelsQuery, {});
      fill(element, ...channels.map(channelRow));
      if (channels.length === 0)
        element.append(el('li', { class: 'empty' }, 'No channel is open.'));
    } catch {
      // The header tells of a hub that cannot be reached; the next read tries again.
    } finally {
      reading = false;
      readIn(asked ? settleMs : pollMs);
    }
  }

  /** Reads the list again soon: once for a burst of asks, after the read under way if any. */
  function refresh(): void {
    asked = true;
    if (!reading) readIn(settleMs);
  }

  refresh();
  return { element, refresh };
}

/**
 * The global hooks in the user's Claude settings (the hub's config dir): with them, every claude
 * started by hand reports to the hub. Shows where they are and where they post, with Install and
 * Uninstall. Every operation needs an admin token; without one the panel says so.
 */
import type { HookInstallationFieldsFragment } from '../../src/gql/graphql.js';
import { button, el, fill } from './dom.js';
import { HubError, type HubClient } from './hub-client.js';
import { showError, showNotice } from './notice.js';
import {
  HookInstallationQuery,
  InstallHooksMutation,
  UninstallHooksMutation,
} from './panel-operations.js';

type Installation = HookInstallationFieldsFragment;

export function hooksPanel(hub: HubClient): { element: HTMLElement; load(): Promise<void> } {
  const element = el('div', { id: 'global-hooks' }, el('p', { class: 'empty' }, 'Loading...'));

  function render(found: Installation): void {
    const where = found.current ? 'this hub' : 'another hub, or this one at an old address';
    fill(
      element,
      el(
        'dl',
        {},
        el('dt', {}, 'file'),
        el('dd', { class: 'hooks-path' }, found.path),
        el('dt', {}, 'state'),
        el(
          'dd',
          {},
          el(
            'span',
            { class: `badge hooks-state ${found.installed ? 'installed' : 'absent'}` },
            found.installed ? 'installed' : 'not installed',
          ),
          found.installed ? ` ${found.events.length} events` : null,
        ),
        ...(found.url
          ? [
              el('dt', {}, 'posts to'),
              el('dd', {}, el('code', { class: 'hooks-url' }, found.url), ` (${where})`),
            ]
          : []),
      ),
      el(
        'div',
        { class: 'controls' },
        button(
          'Install',
          async () => {
            render((await hub.request(InstallHooksMutation, {})).installHooks);
            showNotice('Global hooks installed: claudes started by hand now report here.');
          },
          showError,
          { disabled: found.installed && found.current },
        ),
        button(
          'Uninstall',
          async () => {
            render((await hub.request(UninstallHooksMutation, {})).uninstallHooks);
            showNotice('Global hooks uninstalled.');
          },
          showError,
          { disabled: !found.installed },
        ),
      ),
    );
  }

  async function load(): Promise<void> {
    try {
      render((await hub.request(HookInstallationQuery, {})).hookInstallation);
    } catch (error) {
      const forbidden = error instanceof HubError && error.code === 'FORBIDDEN';
      const why = forbidden
        ? 'Only a token with admin scope sees and changes the global hooks.'
        : 'The global hooks could not be read.';
      fill(element, el('p', { class: 'error' }, why));
      showError(error);
    }
  }

  return { element, load };
}

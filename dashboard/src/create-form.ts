/** The form that starts a session: folder, model, permission mode, runtime and a first prompt. */
import type { CreateSessionInput, PermissionMode, SessionRuntime } from '../../src/gql/graphql.js';
import { el } from './dom.js';
import { HubError, type HubClient } from './hub-client.js';
import type { HubState } from './hub-state.js';
import { showError, showNotice } from './notice.js';
import { CreateSessionMutation } from './operations.js';

const permissionModes: PermissionMode[] = [
  'DEFAULT',
  'ACCEPT_EDITS',
  'PLAN',
  'AUTO',
  'DONT_ASK',
  'BYPASS_PERMISSIONS',
];

function field(label: string, control: HTMLElement): HTMLLabelElement {
  return el('label', {}, el('span', {}, label), control);
}

export function createForm(
  hub: HubClient,
  state: HubState,
  open: (sessionId: string) => void,
): HTMLFormElement {
  const cwd = el('input', { name: 'cwd', required: true, placeholder: '/home/me/project' });
  const name = el('input', { name: 'name', placeholder: 'optional' });
  const model = el('input', { name: 'model', placeholder: "claude's default" });
  const mode = el(
    'select',
    { name: 'permissionMode' },
    el('option', { value: '' }, "claude's default"),
    ...permissionModes.map((value) => el('option', { value }, value)),
  );
  const runtime = el(
    'select',
    { name: 'runtime' },
    el('option', { value: '' }, "the hub's default"),
    el('option', { value: 'TMUX' }, 'TMUX (a terminal to attach to)'),
    el('option', { value: 'HEADLESS' }, 'HEADLESS (claude -p, no terminal)'),
  );
  const trust = el('input', { type: 'checkbox', name: 'trustWorkspace' });
  const prompt = el('textarea', { name: 'prompt', rows: '3', placeholder: 'optional' });
  const submit = el('button', { type: 'submit' }, 'Start session');
  const screen = el('pre', { class: 'screen', hidden: true });
  const form = el(
    'form',
    { id: 'create-session' },
    field('Folder', cwd),
    field('Name', name),
    field('Model', model),
    field('Permission mode', mode),
    field('Runtime', runtime),
    el('label', { class: 'check' }, trust, "Trust this folder (answers claude's trust dialog)"),
    field('First prompt', prompt),
    submit,
    screen,
  );

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const input: CreateSessionInput = { cwd: cwd.value.trim() };
    if (name.value.trim()) input.name = name.value.trim();
    if (model.value.trim()) input.model = model.value.trim();
    if (mode.value) input.permissionMode = mode.value as PermissionMode;
    if (runtime.value) input.runtime = runtime.value as SessionRuntime;
    if (trust.checked) input.trustWorkspace = true;
    if (prompt.value.trim()) input.prompt = prompt.value;
    submit.disabled = true;
    submit.textContent = 'Starting...';
    screen.hidden = true;
    try {
      // Returns once claude is ready (or BLOCKED on a dialog), which takes a few seconds.
      const { createSession: session } = await hub.request(CreateSessionMutation, { input });
      state.putSession(session);
      open(session.id);
      form.reset();
      showNotice(`Session ${session.id} started.`);
    } catch (error) {
      showError(error);
      // A failed start says what claude's screen showed.
      if (error instanceof Error && error.message.includes('\n')) {
        const shown = error instanceof HubError ? error.extensions.screen : undefined;
        screen.textContent = typeof shown === 'string' ? shown : error.message;
        screen.hidden = false;
      }
    } finally {
      submit.disabled = false;
      submit.textContent = 'Start session';
    }
  });
  return form;
}

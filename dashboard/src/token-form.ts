/** Asks for a token once the hub refuses the page without one; it is kept for the tab. */
import { el } from './dom.js';
import { saveToken } from './hub-client.js';

export function tokenForm(): HTMLFormElement {
  const token = el('input', {
    type: 'password',
    name: 'token',
    required: true,
    autocomplete: 'off',
    'aria-label': 'Token',
  });
  const form = el(
    'form',
    { id: 'token-form', hidden: true },
    el('span', {}, 'This hub needs a token: '),
    token,
    el('button', { type: 'submit' }, 'Use token'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    saveToken(token.value.trim());
    // Starting over is the simplest way to redo every request and subscription with it.
    location.reload();
  });
  return form;
}

/** One line at the top of the page saying what just failed (or worked), until the next one. */
import { el } from './dom.js';
import { HubError } from './hub-client.js';

export const noticeElement = el('p', { id: 'notice', role: 'status', hidden: true });

export function showNotice(text: string, kind: 'error' | 'info' = 'info'): void {
  noticeElement.textContent = text;
  noticeElement.className = kind;
  noticeElement.hidden = false;
}

export function showError(error: unknown): void {
  const code = error instanceof HubError && error.code ? ` (${error.code})` : '';
  showNotice(`${error instanceof Error ? error.message : String(error)}${code}`, 'error');
}

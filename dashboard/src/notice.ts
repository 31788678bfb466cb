/** One line at the top of the page saying what just failed (or worked), until the next one. */
import { el } from './dom.js';
import { HubError } from './hub-client.js';

export const noticeElement = el('p', { id: 'notice', role: 'status', hidden: true });

export function showNotice(text: string, kind: 'error' | 'info' = 'info'): void {
  noticeElement.textContent = text;
  noticeElement.className = kind;
  noticeElement.hidden = false;
}

/** The first line of the error and its code; a screen that follows stays with its form. */
export function showError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof HubError && error.code ? ` (${error.code})` : '';
  showNotice(`${message.split('\n')[0]}${code}`, 'error');
}

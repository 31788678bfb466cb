/** Elapsed times: written once as `data-since`, then refreshed every second by one timer. */
import { el } from './dom.js';

/** 850 ms, 1.4 s, 12 s, 3 min 5 s, 2 h 10 min. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** The local time of day of an ISO timestamp, to the second. */
export function timeOfDay(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour12: false });
}

/** Whole seconds: a waiting time that ticks in milliseconds would only be noise. */
function elapsedText(since: string): string {
  const ms = Date.now() - Date.parse(since);
  if (ms < 1000) return 'a moment';
  return ms < 60_000 ? `${Math.floor(ms / 1000)} s` : duration(ms);
}

/** A <time> that shows how long ago `since` was, kept current by startClock. */
export function elapsed(since: string): HTMLTimeElement {
  return el('time', { datetime: since, 'data-since': since, title: since }, elapsedText(since));
}

/** Refreshes every elapsed() on the page once a second. */
export function startClock(): void {
  setInterval(() => {
    for (const node of document.querySelectorAll<HTMLElement>('[data-since]')) {
      node.textContent = elapsedText(node.dataset.since ?? '');
    }
  }, 1000);
}

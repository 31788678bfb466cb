/**
 * The `dashboard-page` section: the dashboard itself, in headless Chromium, over a fleet. A fresh
 * hub gets N sessions started by hand and the page lists them; then the sessions change R times a
 * second for S seconds (a prompt, then its Stop, in turn), as a busy fleet's do. Rows: the page's
 * long tasks during the changes (its main thread busy 50 ms or more at a time: what a person
 * feels as a frozen tab), its main thread's busy time and what of it went to style and layout
 * (Chromium's own counters, steadier than the long tasks on a crowded machine), and how long
 * after the last change the page showed it.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildDashboard, hasChromium, launchHeadlessChromium } from '../harness/chromium.js';
import type { BenchWorld } from './claude-world.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import { ms, type Row } from './row.js';

const section = 'dashboard page';

export interface DashboardPageOptions {
  readonly sessions: number;
  readonly changesPerSecond: number;
  readonly seconds: number;
}

/** The long tasks' time so far, which the page keeps from its first script on. */
declare global {
  interface Window {
    longTasksMs?: number;
  }
}

export async function dashboardPage(
  world: BenchWorld,
  options: DashboardPageOptions,
): Promise<Row[]> {
  const { sessions, changesPerSecond, seconds } = options;
  const label = `${sessions.toLocaleString('en-US')} sessions, ${changesPerSecond} changes/s for ${seconds} s`;
  if (!hasChromium())
    return [{ section, metric: `the page over ${label}`, value: 'skipped: no chromium' }];
  await buildDashboard();
  const hub = await startFreshHub(world, 'page', ['--max-sessions', String(sessions + 16)]);
  const browser = await launchHeadlessChromium();
  try {
    const post = async (body: string) => {
      const status = await hub.hooks.post(hub.target.secret, body);
      if (status !== 200) throw new Error(`a hook event answered ${status}: ${body}`);
    };
    const ids = Array.from({ length: sessions }, () => randomUUID());
    for (let i = 0; i < ids.length; i += 32)
      await Promise.all(ids.slice(i, i + 32).map((id) => post(sessionStartBody(id))));
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.addInitScript(() => {
      window.longTasksMs = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longTasksMs! += entry.duration;
      }).observe({ type: 'longtask', buffered: true });
    });
    const row = (id: string) => page.locator(`#sessions li[data-session-id="${id}"]`);
    const t0 = performance.now();
    await page.goto(hub.base);
    await row(ids.at(-1)!).waitFor({ timeout: 60_000 });
    const loadedMs = performance.now() - t0;
    await sleep(1000);
    const longBefore = await page.evaluate(() => window.longTasksMs ?? 0);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const busyTime = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const seconds = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      return {
        task: seconds('TaskDuration'),
        layout: seconds('LayoutDuration') + seconds('RecalcStyleDuration'),
      };
    };
    const busyBefore = await busyTime();

    // Each change is a session's prompt or, the next time round, its Stop.
    const prompt = (id: string) => ({
      session_id: id,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go',
      cwd: '/tmp',
    });
    const stop = (id: string) => ({
      session_id: id,
      hook_event_name: 'Stop',
      last_assistant_message: 'ok',
      cwd: '/tmp',
    });
    const change = (n: number) => {
      const id = ids[n % ids.length]!;
      return Math.floor(n / ids.length) % 2 === 0 ? prompt(id) : stop(id);
    };
    const start = performance.now();
    let sent = 0;
    while (performance.now() - start < seconds * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * changesPerSecond);
      const batch: Promise<void>[] = [];
      for (; sent < due; sent++) batch.push(post(JSON.stringify(change(sent))));
      await Promise.all(batch);
      await sleep(5);
    }
    // The last change goes to the newest session, the list's first row: its prompt, or its Stop
    // when the load's last change to it was a prompt.
    const newest = ids.length - 1;
    const busy = sent > newest && Math.floor((sent - 1 - newest) / ids.length) % 2 === 0;
    await post(JSON.stringify(busy ? stop(ids[newest]!) : prompt(ids[newest]!)));
    const ended = performance.now();
    await row(ids[newest]!)
      .locator(`.badge.status-${busy ? 'IDLE' : 'BUSY'}`)
      .waitFor({ timeout: 120_000 });
    const lagMs = performance.now() - ended;
    const longMs = (await page.evaluate(() => window.longTasksMs ?? 0)) - longBefore;
    const busyAfter = await busyTime();
    const busyMs = (busyAfter.task - busyBefore.task) * 1000;
    const layoutMs = (busyAfter.layout - busyBefore.layout) * 1000;
    const spanMs = ended - start;
    return [
      {
        section,
        metric: `first load of ${sessions.toLocaleString('en-US')} sessions, to the newest one's row shown`,
        value: ms(loadedMs),
      },
      {
        section,
        metric: `long tasks, ${label}`,
        value: `${ms(longMs)} (${((longMs / spanMs) * 100).toFixed(1)}% of the time; ${sent.toLocaleString('en-US')} changes)`,
        target: '< 10% of the time',
        ok: longMs < spanMs / 10,
      },
      {
        section,
        metric: `the page's main thread busy, ${label}`,
        value: `${ms(busyMs)} (${((busyMs / spanMs) * 100).toFixed(1)}% of the time; style and layout ${ms(layoutMs)})`,
      },
      {
        section,
        metric: `the last change shown, after it was answered`,
        value: ms(lagMs),
        target: '< 250 ms',
        ok: lagMs < 250,
      },
    ];
  } finally {
    await browser.close();
    await hub.stop();
  }
}

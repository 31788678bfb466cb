import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import type { EventIntake } from './event-intake.js';
import { externalRecord, isExternal } from './external-session.js';
import { hookSettingsUrl } from './hook-settings.js';
import type { HookRouting } from './hook-routing.js';
import type { HookUrls } from './hook-urls.js';
import { liveClaudes } from './live-claudes.js';
import { isRunning, type SessionRecord } from './session.js';
import type { SessionEnding } from './session-end.js';
import type { SessionIndex } from './session-index.js';
import type { Launcher } from './session-launch.js';
import { Move } from './session-lifecycle.js';
import type { Supervision } from './session-supervision.js';
import { claudeConfigDir, transcriptPathFor } from './transcript.js';

export interface ReAdoptionDeps {
  readonly runtime: SessionRuntime;
  readonly index: SessionIndex;
  readonly intake: Pick<EventIntake, 'recordMissed' | 'lastEventAt'>;
  readonly launcher: Pick<Launcher, 'launch'>;
  readonly ending: Pick<SessionEnding, 'finish'>;
  readonly supervision: Pick<Supervision, 'disconnect'>;
  readonly routing: Pick<HookRouting, 'join'>;
  readonly hookUrls: HookUrls;
  /** The hub's environment: where claude keeps its session files and transcripts. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * When the hub starts: the sessions still running in tmux are adopted again (those whose hooks
 * post where the hub cannot listen are DISCONNECTED), the others marked, resumable ones
 * resumed, and the claudes started by hand that the hub never heard of join.
 * `earlierGlobalUrl` is where the global hooks posted before they were pointed here.
 */
export async function reAdopt(
  deps: ReAdoptionDeps,
  earlierGlobalUrl: string | null,
): Promise<void> {
  const { runtime, index, intake, launcher, ending, supervision, hookUrls, log } = deps;
  const presence = await runtime.presence(
    [...index.values()].filter((record) => isRunning(record.status)),
  );
  const resumable: SessionRecord[] = [];
  for (const record of index.values()) {
    const lastEventAt = await intake.lastEventAt(record.id);
    if (lastEventAt !== null) record.lastEventAt = lastEventAt;
    const found = presence.get(record.id);
    if (!isRunning(record.status) || !found) continue;
    if (isExternal(record)) {
      if (found.kind === 'running') await intake.recordMissed(record);
      else ending.finish(record, Move.Stopped, null);
      continue;
    }
    if (found.kind === 'gone') continue;
    if (found.kind === 'resumable') {
      resumable.push(record);
    } else if (found.kind === 'running') {
      const url = (record.hookUrl ??= hookSettingsUrl(record.settingsPath));
      const unreachable = url ? await hookUrls.address.reclaim(url) : 'its settings file is gone';
      // Its settings file stays as claude read it at launch: claude does not read it again.
      await intake.recordMissed(record);
      if (unreachable) supervision.disconnect(record, unreachable);
    } else ending.finish(record, Move.Crashed, found.detail);
  }
  for (const record of resumable) {
    await intake.recordMissed(record);
    await launcher
      .launch(record, true)
      .catch((error: unknown) =>
        log.error({ err: error, sessionId: record.id }, 'session not resumed'),
      );
  }
  findStartedByHand(deps);
  if (earlierGlobalUrl) await keepEarlierGlobalUrl(deps, earlierGlobalUrl);
}

/**
 * The claudes that run now and that the hub has not heard of (started by hand before the hub,
 * or before the global hooks were installed) join as EXTERNAL sessions, from their session files.
 */
function findStartedByHand({ index, routing, env, clock }: ReAdoptionDeps): void {
  for (const claude of liveClaudes(claudeConfigDir(env))) {
    if (claude.kind !== 'interactive' || index.ownerOf(claude.sessionId) !== undefined) continue;
    const record = externalRecord({
      payload: { session_id: claude.sessionId, hook_event_name: '', cwd: claude.cwd },
      pid: claude.pid,
      pane: claude.pane,
      busy: claude.busy,
      now: clock.now(),
    });
    record.transcriptPath = transcriptPathFor(env, claude.cwd, claude.sessionId);
    routing.join(record, 'found a claude started by hand');
  }
}

/**
 * claude reads its settings again when they change, but only once it watches them: a claude
 * started a moment before the global hooks were pointed here may keep posting to their earlier
 * address. The hub answers there too while a claude that ran then still runs.
 */
async function keepEarlierGlobalUrl({ index, hookUrls, log }: ReAdoptionDeps, url: string) {
  const running = [...index.values()].filter(
    (record) => isExternal(record) && isRunning(record.status),
  );
  if (running.length === 0) return;
  const unreachable = await hookUrls.address.reclaim(url);
  if (unreachable) {
    log.warn({ url, reason: unreachable }, 'earlier global hook address not kept');
    return;
  }
  for (const record of running) record.hookUrl = url;
}

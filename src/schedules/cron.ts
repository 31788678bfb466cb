import { Cron } from 'croner';
import { ErrorCode, HubError } from '../errors.js';

/** A schedule's times: a 5-field cron line (minute hour day-of-month month day-of-week). */
function cronOf(cron: string, timezone: string): Cron {
  return new Cron(cron, { paused: true, timezone, mode: '5-part' });
}

/** The cron line, checked: five fields croner accepts; BAD_USER_INPUT naming `cron` if not. */
export function checkCron(cron: string): string {
  const line = cron.trim();
  if (line.split(/\s+/).length !== 5) {
    throw new HubError(
      ErrorCode.BadInput,
      `cron must have 5 fields (minute hour day-of-month month day-of-week), got ${JSON.stringify(cron)}`,
      { field: 'cron' },
    );
  }
  try {
    cronOf(line, 'UTC');
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : '';
    throw new HubError(ErrorCode.BadInput, `cron ${JSON.stringify(cron)} is not valid: ${why}`, {
      field: 'cron',
    });
  }
  return line;
}

/** An IANA time zone name (`Europe/Berlin`, `UTC`), checked; BAD_USER_INPUT naming `timezone`. */
export function checkTimezone(timezone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    throw new HubError(
      ErrorCode.BadInput,
      `timezone must be an IANA time zone name such as UTC or Europe/Berlin, got ${JSON.stringify(timezone)}`,
      { field: 'timezone' },
    );
  }
}

/** The first time the cron line names after `after` (ms), read in `timezone`; null: never. */
export function nextRunAfter(cron: string, timezone: string, after: number): number | null {
  return cronOf(cron, timezone).nextRun(new Date(after))?.getTime() ?? null;
}

import pino from 'pino';

export type Logger = pino.Logger;

export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/**
 * JSON lines (pino) on stderr, or on the given stream: stdout carries only the ready line.
 * Lines about a session carry its id as `sessionId`. Secrets are never passed to the logger;
 * redaction of authorization fields guards against a mistake.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ['authorization', '*.authorization', 'secret', '*.secret'],
        censor: '[hidden]',
      },
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

import pino, { type Logger } from 'pino';

/** Structured JSON logs (pino); `LOG_LEVEL=silent` in tests. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'vance' }, redact: ['req.headers.authorization', 'token', '*.token'] });
}

/**
 * `vance.log` is rate- and size-limited (DESIGN §6): at most `maxLines` lines per run, each cut to
 * `maxChars`; the first line over the limit is replaced by one note, the rest are dropped.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class LogLimiter {
  private lines = 0;

  constructor(private readonly maxLines = 50, private readonly maxChars = 2_000) {}

  /** The line to emit, or null when the run's budget is spent. */
  admit(level: unknown, message: unknown): { level: LogLevel; message: string } | null {
    this.lines++;
    if (this.lines > this.maxLines + 1) return null;
    if (this.lines === this.maxLines + 1) return { level: 'warn', message: `(further log lines of this run dropped: the limit is ${this.maxLines})` };
    const lvl = typeof level === 'string' ? level.toLowerCase() : '';
    const text = typeof message === 'string' ? message : JSON.stringify(message ?? null) ?? String(message);
    return {
      level: (LOG_LEVELS as readonly string[]).includes(lvl) ? (lvl as LogLevel) : 'info',
      message: text.length > this.maxChars ? `${text.slice(0, this.maxChars)}… (${text.length} characters)` : text,
    };
  }
}

/**
 * The process's one logger: a line per event, `<ISO time> <LEVEL> <area> <message>`, e.g.
 * `2026-11-26T16:00:00.000Z INFO gateway device 359710049000011 logged in`. LOG_LEVEL
 * (debug|info|warn|error) drops the lines below it; debug and info go to stdout, warn and
 * error to stderr. Areas are named once (`const log = logger.area("gateway")`), so a call
 * site writes `log.info("…")` and a dropped level costs one comparison.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const LABEL: Record<LogLevel, string> = {
  debug: "DEBUG",
  info: "INFO",
  warn: "WARN",
  error: "ERROR",
};

/** Where finished lines go (the console by default; a test collects them). */
export type LogWriter = (line: string, level: LogLevel) => void;

const consoleWriter: LogWriter = (line, level) => {
  if (RANK[level] >= RANK.warn) console.error(line);
  else console.log(line);
};

export interface AreaLogger {
  readonly area: string;
  /** True when a line at `level` would be written (to skip building an expensive message). */
  enabled(level: LogLevel): boolean;
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

/** One line for an error or any other detail: a stack's lines joined with " | ". */
export function describe(detail: unknown): string {
  if (detail instanceof Error) {
    return (detail.stack ?? `${detail.name}: ${detail.message}`).replace(/\s*\n\s*/g, " | ");
  }
  if (typeof detail === "string") return detail;
  try {
    return JSON.stringify(detail) ?? String(detail);
  } catch {
    return String(detail);
  }
}

/** Newlines inside a message would split one event into lines a reader (or grep) misjoins. */
function oneLine(text: string): string {
  return text.includes("\n") ? text.replace(/\s*\n\s*/g, " | ") : text;
}

export class Logger {
  #threshold = RANK.info;
  #write: LogWriter;
  readonly #areas = new Map<string, AreaLogger>();

  constructor(opts: { level?: LogLevel; write?: LogWriter } = {}) {
    this.#write = opts.write ?? consoleWriter;
    if (opts.level) this.setLevel(opts.level);
  }

  setLevel(level: LogLevel): void {
    this.#threshold = RANK[level];
  }

  get level(): LogLevel {
    return (Object.keys(RANK) as LogLevel[]).find((l) => RANK[l] === this.#threshold)!;
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] >= this.#threshold;
  }

  /** The logger of one area (gateway, http, alerts, …); the same object for the same name. */
  area(name: string): AreaLogger {
    let a = this.#areas.get(name);
    if (!a) {
      const at = (level: LogLevel) => (message: string, detail?: unknown) =>
        this.write(level, name, message, detail);
      a = {
        area: name,
        enabled: (level) => this.enabled(level),
        debug: at("debug"),
        info: at("info"),
        warn: at("warn"),
        error: at("error"),
      };
      this.#areas.set(name, a);
    }
    return a;
  }

  /** Writes one line when `level` passes LOG_LEVEL. */
  write(level: LogLevel, area: string, message: string, detail?: unknown): void {
    if (RANK[level] < this.#threshold) return;
    const text = detail === undefined ? message : `${message}: ${describe(detail)}`;
    this.#write(`${new Date().toISOString()} ${LABEL[level]} ${area} ${oneLine(text)}`, level);
  }
}

/** The process-wide logger; main.ts sets its level from LOG_LEVEL. */
export const log: Logger = new Logger();

/**
 * At most one line per key (e.g. device + protocol + kind) per window: the first event of a
 * window is written, later ones in it are counted, and the next line written for that key
 * says how many were suppressed. Without a timer (nothing to stop in tests), so a count is
 * told when the key next occurs; exact totals are in /metrics. The table is swept of
 * quiet keys as it grows, so a flood of distinct remote addresses cannot grow it unbounded.
 */
export class RateLimitedLog {
  readonly #seen = new Map<string, { until: number; suppressed: number }>();

  constructor(
    private readonly logger: AreaLogger,
    private readonly level: LogLevel = "warn",
    private readonly windowMs = 60_000,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs `message` unless `key` was logged within the window; returns whether it did. */
  log(key: string, message: string, detail?: unknown): boolean {
    if (!this.logger.enabled(this.level)) return false;
    const t = this.now();
    const entry = this.#seen.get(key);
    if (entry && t < entry.until) {
      entry.suppressed++;
      return false;
    }
    const suppressed = entry?.suppressed ?? 0;
    if (!entry && this.#seen.size >= this.maxKeys) this.#sweep(t);
    this.#seen.set(key, { until: t + this.windowMs, suppressed: 0 });
    const text = detail === undefined ? message : `${message}: ${describe(detail)}`;
    this.logger[this.level](
      suppressed > 0 ? `${text} (${suppressed} more like this suppressed since the last)` : text,
    );
    return true;
  }

  /** Drops keys whose window is over (their suppressed count is lost; /metrics has it). */
  #sweep(t: number): void {
    for (const [k, e] of this.#seen) if (t >= e.until) this.#seen.delete(k);
    // Still full (a flood inside one window): forget the oldest half.
    if (this.#seen.size >= this.maxKeys) {
      let drop = this.#seen.size >> 1;
      for (const k of this.#seen.keys()) {
        if (drop-- <= 0) break;
        this.#seen.delete(k);
      }
    }
  }
}

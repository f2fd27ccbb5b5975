export interface StatusLog {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

/**
 * Whether one dependency (the database, Redis) answered last time this process used it. An
 * outage is logged once when it starts and once when it ends (not once per failed request),
 * and counted, so /metrics and /readyz can report it.
 */
export class DependencyStatus {
  readonly name: string;
  #up = true;
  #downSince = 0;
  #outages = 0;
  #reason: string | null = null;
  #log: StatusLog | null;

  constructor(name: string, log: StatusLog | null = null) {
    this.name = name;
    this.#log = log;
  }

  /** Where outage lines go; the status may exist before the logger does. */
  attachLog(log: StatusLog): void {
    this.#log = log;
  }

  get up(): boolean {
    return this.#up;
  }

  /** Outages seen by this process since it started. */
  get outages(): number {
    return this.#outages;
  }

  /** What the last failure was, while down. */
  get reason(): string | null {
    return this.#reason;
  }

  /** Milliseconds since the current outage began; 0 while up. */
  downForMs(now = Date.now()): number {
    return this.#up ? 0 : now - this.#downSince;
  }

  failed(err: unknown, reason: string, extra: object = {}): void {
    if (!this.#up) return;
    this.#up = false;
    this.#downSince = Date.now();
    this.#outages++;
    this.#reason = reason;
    this.#log?.warn({ dependency: this.name, reason, err: errorSummary(err), ...extra }, `${this.name} unavailable`);
  }

  succeeded(extra: object = {}): void {
    if (this.#up) return;
    const downMs = Date.now() - this.#downSince;
    this.#up = true;
    this.#reason = null;
    this.#log?.info({ dependency: this.name, down_ms: downMs, ...extra }, `${this.name} available again`);
  }
}

/** A short, serialisable form of an error for log lines (the pino serializer is not always there). */
function errorSummary(err: unknown): object | undefined {
  if (!(err instanceof Error)) return err === undefined ? undefined : { message: String(err) };
  const code = (err as { code?: unknown }).code;
  return { type: err.name, message: err.message, ...(code !== undefined ? { code } : {}) };
}

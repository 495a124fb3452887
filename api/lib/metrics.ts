/**
 * A small registry in the Prometheus text exposition format (version 0.0.4), and Lantern's series.
 *
 * One registry per process: a scrape target is a process, and the hashing gate and sockets it
 * describes are the process's. Label values come only from code (route patterns, job names, fixed
 * word lists), never from a request: no path, host, slug, report ID, address or user agent can reach
 * a series, and the number of series stays bounded whatever clients send.
 */

type LabelValues = Record<string, string>;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Label values may hold any text: backslash, double quote and line feed are escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text escapes only backslash and line feed. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function labelText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabelValue(values[i] ?? "")}"`);
  if (extra) pairs.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

abstract class Metric<Value> {
  protected readonly series = new Map<string, { values: string[]; value: Value }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    if (!METRIC_NAME.test(name)) throw new Error(`Invalid metric name ${name}`);
    for (const label of labelNames) if (!LABEL_NAME.test(label) || label === "le") throw new Error(`Invalid label name ${label}`);
  }

  protected abstract readonly type: "counter" | "gauge" | "histogram";
  protected abstract fresh(): Value;
  protected abstract lines(labels: string[], value: Value): string[];

  protected entry(labels: LabelValues): { values: string[]; value: Value } {
    const values = this.labelNames.map((name) => {
      const value = labels[name];
      if (value === undefined) throw new Error(`${this.name} needs the label ${name}`);
      return value;
    });
    const key = JSON.stringify(values);
    let found = this.series.get(key);
    if (!found) {
      found = { values, value: this.fresh() };
      this.series.set(key, found);
    }
    return found;
  }

  render(): string {
    const out = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    for (const { values, value } of this.series.values()) out.push(...this.lines(values, value));
    return out.join("\n");
  }
}

export class Counter extends Metric<{ n: number }> {
  protected readonly type = "counter";
  protected fresh() {
    return { n: 0 };
  }
  inc(labels: LabelValues = {}, by = 1): void {
    if (by < 0) throw new Error("A counter only goes up");
    this.entry(labels).value.n += by;
  }
  /** Shows the series at 0 before its first event, so a rate over it starts from a known point. */
  touch(labels: LabelValues = {}): void {
    this.entry(labels);
  }
  protected lines(values: string[], value: { n: number }) {
    return [`${this.name}${labelText(this.labelNames, values)} ${formatValue(value.n)}`];
  }
}

export class Gauge extends Metric<{ n: number }> {
  protected readonly type = "gauge";
  protected fresh() {
    return { n: 0 };
  }
  set(labels: LabelValues, value: number): void {
    this.entry(labels).value.n = value;
  }
  inc(labels: LabelValues = {}, by = 1): void {
    this.entry(labels).value.n += by;
  }
  dec(labels: LabelValues = {}, by = 1): void {
    this.entry(labels).value.n -= by;
  }
  protected lines(values: string[], value: { n: number }) {
    return [`${this.name}${labelText(this.labelNames, values)} ${formatValue(value.n)}`];
  }
}

interface HistogramValue {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Metric<HistogramValue> {
  protected readonly type = "histogram";
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
    if (buckets.some((b, i) => i > 0 && b <= buckets[i - 1]!)) throw new Error("Histogram buckets must increase");
  }
  protected fresh() {
    return { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
  }
  observe(labels: LabelValues, value: number): void {
    const entry = this.entry(labels).value;
    // Each bucket counts what is at most its bound; the cumulative sums are made when rendered.
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index >= 0) entry.counts[index]! += 1;
    entry.sum += value;
    entry.count += 1;
  }
  protected lines(values: string[], value: HistogramValue) {
    const out: string[] = [];
    let cumulative = 0;
    this.buckets.forEach((bound, i) => {
      cumulative += value.counts[i]!;
      out.push(`${this.name}_bucket${labelText(this.labelNames, values, ["le", formatValue(bound)])} ${cumulative}`);
    });
    out.push(`${this.name}_bucket${labelText(this.labelNames, values, ["le", "+Inf"])} ${value.count}`);
    out.push(`${this.name}_sum${labelText(this.labelNames, values)} ${formatValue(value.sum)}`);
    out.push(`${this.name}_count${labelText(this.labelNames, values)} ${value.count}`);
    return out;
  }
}

const registered: { render(): string }[] = [];
function register<M extends { render(): string }>(metric: M): M {
  registered.push(metric);
  return metric;
}

/** Every series, in the text exposition format, ending with a line feed. */
export function renderMetrics(): string {
  return `${registered.map((metric) => metric.render()).join("\n")}\n`;
}

export const httpRequests = register(new Counter("lantern_http_requests_total", "HTTP requests answered, by route pattern, method and status.", ["route", "method", "status"]));
export const httpDuration = register(
  new Histogram("lantern_http_request_duration_seconds", "Time to answer an HTTP request, by route pattern.", ["route"], [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
);
export const openSockets = register(new Gauge("lantern_websocket_connections", "Open WebSocket connections (live updates and chat).", []));
export const hashingInProgress = register(new Gauge("lantern_password_hashing_in_progress", "Password hashes being computed now.", []));
export const hashingWaiting = register(new Gauge("lantern_password_hashing_waiting", "Password hashes queued behind the gate, by lane.", ["lane"]));
export const cleaningInProgress = register(new Gauge("lantern_upload_cleaning_in_progress", "Uploaded files being cleaned of their metadata now, in the cleaning workers.", []));
export const cleaningWaiting = register(new Gauge("lantern_upload_cleaning_waiting", "Uploaded files queued for cleaning, by lane.", ["lane"]));
export const mailSending = register(new Gauge("lantern_mail_sending", "Mails handed to the mailer and not yet accepted by it (SMTP: queued in or sent through the pool).", ["mailer"]));
export const mailSent = register(new Counter("lantern_mail_sent_total", "Mails the mailer finished with, by result (sent or failed).", ["mailer", "result"]));
export const outboxMessages = register(new Gauge("lantern_mail_outbox_messages", "Messages lying in the on-disk outbox (embedded mail), waiting to be read or forwarded.", []));
export const jobRuns = register(new Counter("lantern_job_runs_total", "Runs of background jobs, by job.", ["job"]));
export const jobFailures = register(new Counter("lantern_job_failures_total", "Failed runs of background jobs, by job.", ["job"]));
export const jobLastSuccess = register(new Gauge("lantern_job_last_success_timestamp_seconds", "When a background job last finished without error (unix time).", ["job"]));
export const backupLastMade = register(new Gauge("lantern_backup_last_timestamp_seconds", "When the newest automatic backup of the embedded database was made (unix time); 0 while there is none.", []));
export const residentMemory = register(new Gauge("lantern_process_resident_memory_bytes", "Resident memory of the server process.", []));
export const uptime = register(new Gauge("lantern_process_uptime_seconds", "Seconds since the server process started.", []));

// Series without labels show 0 from the first scrape, not only after their first change.
for (const gauge of [openSockets, hashingInProgress, cleaningInProgress]) gauge.set({}, 0);
for (const lane of ["trusted", "open"]) for (const waiting of [hashingWaiting, cleaningWaiting]) waiting.set({ lane }, 0);

/** Shows a job's counters at 0 from its start, for a job whose first run comes later. */
export function declareJob(job: string): void {
  jobRuns.touch({ job });
  jobFailures.touch({ job });
}

/**
 * Records how a background job's run ends and hands the same promise back, still rejecting for its
 * caller: the job's own error handling is untouched.
 */
export function observeJob<T>(job: string, run: Promise<T>): Promise<T> {
  declareJob(job);
  run.then(
    () => {
      jobRuns.inc({ job });
      jobLastSuccess.set({ job }, Math.floor(Date.now() / 1000));
    },
    () => {
      jobRuns.inc({ job });
      jobFailures.inc({ job });
    },
  );
  return run;
}

/** Counts a mail send as under way until it settles, and how it ended. */
export async function observeMail<T>(mailer: "outbox" | "smtp", send: () => Promise<T>): Promise<T> {
  mailSending.inc({ mailer });
  try {
    const result = await send();
    mailSent.inc({ mailer, result: "sent" });
    return result;
  } catch (error) {
    mailSent.inc({ mailer, result: "failed" });
    throw error;
  } finally {
    mailSending.dec({ mailer });
  }
}

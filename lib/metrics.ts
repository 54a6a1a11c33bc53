/**
 * A small metrics registry rendered in the Prometheus text exposition format (0.0.4).
 *
 * Counters, gauges and histograms with fixed buckets. A labelled series is resolved once
 * (`family.labels("gt06")` at start-up) and kept; counting is then a number add on a plain
 * object, with no lookup and no allocation per observation (the gateway counts every frame).
 * Values read from elsewhere at scrape time (queue depths, stream clients) are `gaugeFn`
 * callbacks, so the code they describe is not touched at all.
 *
 * lib/ imports no module: modules receive the series they count into from the composition
 * root (app/compose.ts), which owns the process's registry.
 */

export class Counter {
  value = 0;
  inc(n = 1): void {
    this.value += n;
  }
}

export class Gauge {
  value = 0;
  /** When set, the value is read from here at scrape time (a queue's length, say). */
  sampler: (() => number) | null = null;
  set(v: number): void {
    this.value = v;
  }
  inc(n = 1): void {
    this.value += n;
  }
  dec(n = 1): void {
    this.value -= n;
  }
}

export class Histogram {
  /** Per-bucket counts (not cumulative; the last is +Inf). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

type Kind = "counter" | "gauge" | "histogram";

interface Series<T> {
  values: readonly string[];
  metric: T;
}

/** A metric name with its labelled series. */
export class Family<T extends Counter | Gauge | Histogram> {
  readonly series = new Map<string, Series<T>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly kind: Kind,
    readonly labelNames: readonly string[],
    private readonly make: () => T,
  ) {}

  /** The series of these label values (in `labelNames` order); resolve once, keep it. */
  labels(...values: string[]): T {
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name}: expected labels ${this.labelNames.join(", ")}`);
    }
    const key = values.join("\u0000");
    let s = this.series.get(key);
    if (!s) {
      s = { values, metric: this.make() };
      this.series.set(key, s);
    }
    return s.metric;
  }
}

/** Reports gauge values at scrape time: `emit(value, ...labelValues)`. */
export type GaugeCollector = (emit: (value: number, ...labelValues: string[]) => void) => void;

interface Callback {
  name: string;
  help: string;
  labelNames: readonly string[];
  collect: GaugeCollector;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Default latency buckets in seconds (1 ms … 10 s). */
export const SECONDS_BUCKETS = [
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
] as const;

export class Registry {
  readonly #families = new Map<string, Family<Counter | Gauge | Histogram> | Callback>();

  counter(name: string, help: string, labelNames: readonly string[] = []): Family<Counter> {
    return this.#add(new Family(name, help, "counter", labelNames, () => new Counter()));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Family<Gauge> {
    return this.#add(new Family(name, help, "gauge", labelNames, () => new Gauge()));
  }

  histogram(
    name: string,
    help: string,
    buckets: readonly number[],
    labelNames: readonly string[] = [],
  ): Family<Histogram> {
    for (let i = 1; i < buckets.length; i++) {
      if (!(buckets[i] > buckets[i - 1])) throw new Error(`${name}: buckets must increase`);
    }
    return this.#add(
      new Family(name, help, "histogram", labelNames, () => new Histogram(buckets)),
    );
  }

  /** A gauge whose values are read when scraped (queue depths, clients). */
  gaugeFn(name: string, help: string, labelNames: readonly string[], collect: GaugeCollector) {
    this.#check(name, labelNames);
    this.#families.set(name, { name, help, labelNames, collect });
  }

  /** The family registered under `name` (tests, and adding worker counts into it). */
  get(name: string): Family<Counter | Gauge | Histogram> | undefined {
    const f = this.#families.get(name);
    return f instanceof Family ? f : undefined;
  }

  #add<T extends Counter | Gauge | Histogram>(f: Family<T>): Family<T> {
    this.#check(f.name, f.labelNames);
    this.#families.set(f.name, f as unknown as Family<Counter | Gauge | Histogram>);
    return f;
  }

  #check(name: string, labelNames: readonly string[]) {
    if (!NAME.test(name)) throw new Error(`bad metric name ${name}`);
    if (this.#families.has(name)) throw new Error(`metric ${name} registered twice`);
    for (const l of labelNames) {
      if (!LABEL.test(l) || l === "le") throw new Error(`${name}: bad label name ${l}`);
    }
  }

  /** The text exposition format 0.0.4 (`Content-Type: text/plain; version=0.0.4`). */
  render(): string {
    const out: string[] = [];
    for (const f of this.#families.values()) {
      const kind = f instanceof Family ? f.kind : "gauge";
      out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${kind}`);
      if (f instanceof Family) renderFamily(f, out);
      else {
        f.collect((value, ...values) =>
          out.push(`${f.name}${labelText(f.labelNames, values)} ${num(value)}`)
        );
      }
    }
    return out.join("\n") + "\n";
  }
}

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

function renderFamily(f: Family<Counter | Gauge | Histogram>, out: string[]) {
  for (const { values, metric } of f.series.values()) {
    if (metric instanceof Histogram) {
      let cumulative = 0;
      for (let i = 0; i <= metric.bounds.length; i++) {
        cumulative += metric.counts[i];
        const le = i < metric.bounds.length ? num(metric.bounds[i]) : "+Inf";
        out.push(`${f.name}_bucket${labelText(f.labelNames, values, le)} ${num(cumulative)}`);
      }
      const l = labelText(f.labelNames, values);
      out.push(`${f.name}_sum${l} ${num(metric.sum)}`, `${f.name}_count${l} ${num(metric.count)}`);
    } else {
      const v = metric instanceof Gauge && metric.sampler ? metric.sampler() : metric.value;
      out.push(`${f.name}${labelText(f.labelNames, values)} ${num(v)}`);
    }
  }
}

function labelText(names: readonly string[], values: readonly string[], le?: string): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? "")}"`);
  if (le !== undefined) parts.push(`le="${le}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function num(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

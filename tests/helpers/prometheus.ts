/**
 * Reads the Prometheus text exposition format (0.0.4) back into samples, strictly enough that
 * a malformed line fails the test that scrapes it: `# HELP`/`# TYPE` comments, then
 * `name{label="value",…} number` lines with the format's escapes (\\ \" \n).
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  types: Map<string, string>;
  /** The value of the one sample matching name and (a subset of) labels; absent: undefined. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** The sum over every sample of `name` matching the labels given. */
  sum(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

export function parseMetrics(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("# TYPE ")) {
      const [, , name, type] = line.split(" ");
      if (!/^(counter|gauge|histogram|summary|untyped)$/.test(type)) {
        throw new Error(`bad TYPE line: ${line}`);
      }
      types.set(name, type);
      continue;
    }
    if (line.startsWith("# HELP ")) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[3]) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < m[3].length) {
        const l = LABEL.exec(m[3]);
        if (!l) throw new Error(`bad labels in: ${line}`);
        labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c));
      }
    }
    const value = m[4] === "+Inf" ? Infinity : m[4] === "-Inf" ? -Infinity : Number(m[4]);
    if (Number.isNaN(value) && m[4] !== "NaN") throw new Error(`bad value in: ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  const matching = (name: string, want: Record<string, string>) =>
    samples.filter((s) =>
      s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v)
    );
  return {
    samples,
    types,
    value(name, labels = {}) {
      const found = matching(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`);
      return found[0]?.value;
    },
    sum: (name, labels = {}) => matching(name, labels).reduce((a, s) => a + s.value, 0),
  };
}

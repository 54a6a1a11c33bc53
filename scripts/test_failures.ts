/**
 * A failed pass's errors, repeated at the end of the test run. CI keeps only the tail of a long
 * run's output, and pass 1's ERRORS section scrolls away under passes 2 and 3 (it did: a red run
 * showed which pass failed, not which test).
 */
import { writeAll, type Writer } from "../lib/net/write_all.ts";

/** Keeps the last `limit` characters of what a pass printed, while it prints. */
export class OutputTail {
  #text = "";
  readonly #decoder = new TextDecoder();

  constructor(readonly limit = 400_000) {}

  add(chunk: Uint8Array): void {
    this.#text += this.#decoder.decode(chunk, { stream: true });
    if (this.#text.length > this.limit * 2) this.#text = this.#text.slice(-this.limit);
  }

  get text(): string {
    return this.#text.slice(-this.limit);
  }
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const FALLBACK_LINES = 80;
const MAX_REPORT = 30_000;

/**
 * The part of a pass's output that says what failed: from `deno test`'s last ERRORS (or
 * FAILURES) heading to the end, without colours; when there is none (the run itself broke), its
 * last lines.
 */
export function failureReport(output: string): string {
  const text = output.replace(ANSI, "");
  const lines = text.split("\n");
  const errors = lines.lastIndexOf(" ERRORS ");
  const start = errors >= 0 ? errors : lines.lastIndexOf(" FAILURES ");
  const part = start >= 0 ? lines.slice(start) : lines.slice(-FALLBACK_LINES);
  const report = part.join("\n").trimEnd();
  return report.length > MAX_REPORT ? `…\n${report.slice(-MAX_REPORT)}` : report;
}

/** Copies a child's stream to ours, keeping its tail. */
export async function pumpKeepingTail(
  from: ReadableStream<Uint8Array>,
  to: Writer,
  tail: OutputTail,
): Promise<void> {
  for await (const chunk of from) {
    tail.add(chunk);
    await writeAll(to, chunk);
  }
}

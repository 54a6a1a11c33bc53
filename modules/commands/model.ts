/**
 * What browser code may know of the instruction catalogue: which instructions are dangerous
 * and which one a picker starts on. Pure data, no store or service imports.
 */
import { type Danger, INSTRUCTIONS } from "./catalogue/instructions.ts";

export type { Danger };

/** Why an instruction is dangerous (it immobilises the vehicle or erases the device), or null. */
export function dangerOf(code: string): Danger | null {
  return (INSTRUCTIONS as Record<string, { danger?: Danger }>)[code]?.danger ?? null;
}

/** Categories a picker prefers to start on: harmless queries first, engine commands last. */
const START_ORDER = ["query", "settings", "alarm", "device", "custom", "engine"];

/**
 * The instruction a command picker starts on: never a dangerous one (an operator who just
 * presses Send must not cut an engine), preferring a query such as "Locate". Null when the
 * list offers nothing else, so the picker starts empty.
 */
export function startInstruction<T extends { code: string; category: string }>(
  offered: readonly T[],
): T | null {
  const safe = offered.filter((i) => !dangerOf(i.code));
  const rank = (i: T) => {
    const r = START_ORDER.indexOf(i.category);
    return r < 0 ? START_ORDER.length : r;
  };
  return safe.reduce<T | null>((best, i) => (!best || rank(i) < rank(best) ? i : best), null);
}

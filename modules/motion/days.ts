/** UTC days as the motion store keys them (YYYY-MM-DD) and their bounds in epoch ms. */

export const DAY_MS = 86_400_000;

/** The UTC day of an epoch-ms time, YYYY-MM-DD. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** First millisecond of a UTC day. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

/** Last millisecond of a UTC day. */
export function dayEnd(day: string): number {
  return dayStart(day) + DAY_MS - 1;
}

/** The day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  return dayOf(dayStart(day) + n * DAY_MS);
}

/** Every UTC day from the day of `from` to the day of `to`, in order. */
export function daysBetween(from: number, to: number): string[] {
  const out: string[] = [];
  for (let t = dayStart(dayOf(from)); t <= to; t += DAY_MS) out.push(dayOf(t));
  return out;
}

/** YYYY-MM of a day. */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

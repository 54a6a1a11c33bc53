/** A datetime-local value (local time, minutes) as ISO-8601 UTC, or undefined when empty. */
export const isoOf = (local: string) => local ? new Date(local).toISOString() : undefined;

/** A Date as a datetime-local value in the browser's time zone. */
export function localInput(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${
    p(d.getMinutes())
  }`;
}

/** Bytes for people: 1.2 MB, 640 KB. */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

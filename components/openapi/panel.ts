/** What the Open API settings panels (app keys, push endpoints) share. */
import { toast } from "../ui/Toast.tsx";

/** The list with `item` added, or taken out when it was in (a checkbox group's value). */
export function toggled<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

/**
 * Runs one of a panel's calls: on success says `done` (when given) and reloads the panel,
 * answering the call's result; a refusal goes to `fail` (the panel's error line).
 */
export async function panelCall<T>(
  call: () => Promise<T>,
  after: { done?: string; reload: () => Promise<unknown>; fail: (e: unknown) => void },
): Promise<T | undefined> {
  try {
    const result = await call();
    if (after.done) toast(after.done);
    await after.reload();
    return result;
  } catch (e) {
    after.fail(e);
    return undefined;
  }
}

import type { AppParts } from "../lib/app.ts";
import type { Services } from "../lib/services.ts";

/** Placeholder until pages land: returns the page mounter. */
export function mountPages(_s: Services): Promise<(parts: AppParts) => void> {
  return Promise.resolve(() => {});
}

import { activationState, type Device, effectiveExpiry } from "./model.ts";
import type { filterBody } from "./schemas.ts";
import type { z } from "zod";

const DAY = 86_400_000;

/**
 * The registry-field filters of the device list (spec §2/§4): model, group, expiry window,
 * activation state, enabled, bound, keyword and advanced search. Live-state filters
 * (status, follow) are applied by the caller.
 */
export function matcher(f: z.infer<typeof filterBody>, now: number): (d: Device) => boolean {
  const keyword = f.keyword?.toLowerCase();
  const activatedFrom = f.activatedFrom ? Date.parse(`${f.activatedFrom}T00:00:00Z`) : null;
  const activatedTo = f.activatedTo ? Date.parse(`${f.activatedTo}T23:59:59Z`) : null;
  return (d) => {
    if (f.mcType && d.mcType !== f.mcType) return false;
    if (keyword && !d.imei.includes(keyword) && !d.deviceName.toLowerCase().includes(keyword)) {
      return false;
    }
    if (f.groupId !== undefined) {
      if (f.groupId === "0" ? d.groupId : d.groupId !== f.groupId) return false;
    }
    if (f.enabled !== undefined && d.enabled !== f.enabled) return false;
    if (f.bound !== undefined && !!d.bindUserAccount !== f.bound) return false;
    if (f.appBindable !== undefined && (d.appBindable !== false) !== f.appBindable) return false;
    if (f.sim && !d.sim.includes(f.sim)) return false;
    if (activatedFrom !== null || activatedTo !== null) {
      if (!d.activationTime) return false;
      const at = Date.parse(d.activationTime);
      if (activatedFrom !== null && at < activatedFrom) return false;
      if (activatedTo !== null && at > activatedTo) return false;
    }
    if (f.expiryWithin) {
      const exp = effectiveExpiry(d);
      if (!exp) return false;
      const end = Date.parse(exp.length === 10 ? `${exp}T23:59:59Z` : exp);
      if (end < now || end - now > f.expiryWithin * DAY) return false;
    }
    if (f.activation) {
      const a = activationState(d, now);
      switch (f.activation) {
        case "notActivated":
          return a === "notActivated" || a === "awaitingPermission";
        case "notActivatedAuto":
          return a === "notActivated";
        case "activated":
          // Activated covers expiring devices too; expired ones have their own filter.
          return a === "activated" || a === "expiring";
        default:
          return a === f.activation;
      }
    }
    return true;
  };
}

import type { ApiRegistry } from "../../lib/http/api.ts";
import type { MotionRulesService } from "./rules.ts";
import { motionRulesGetBody, motionRulesSetBody } from "./schemas.ts";

/** The services these routes use (the composition root passes them). */
export interface MotionRouteDeps {
  motion: { rules: MotionRulesService };
}

/** Per-account thresholds of the motion analysis the reports read (trips, stops, overspeed). */
export function registerMotionRoutes(api: ApiRegistry, s: MotionRouteDeps) {
  const tag = "Reports";
  api.add({
    method: "post",
    path: "/v3/new/report/motionRules/get",
    need: "viewReports",
    tag,
    summary:
      "An account's motion rules (trip, stop, gap, overspeed thresholds), the defaults, and the progress of a recompute after a change",
    body: motionRulesGetBody,
    handler: ({ body, c }) => s.motion.rules.get(c.var.session, body.userId ?? null),
  });
  api.add({
    method: "post",
    path: "/v3/new/report/motionRules/set",
    need: "editData",
    tag,
    summary:
      "Change an account's motion rules; its devices' last 31 days are recomputed in the background",
    body: motionRulesSetBody,
    handler: ({ body, c }) => s.motion.rules.set(c.var.session, body.userId ?? null, body.rules),
  });
}

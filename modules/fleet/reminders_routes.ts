import type { ApiRegistry } from "../../lib/http/api.ts";
import * as S from "./reminders_schemas.ts";
import type { ReminderService } from "./reminders_service.ts";

/** The services these routes use (the composition root passes them). */
export interface FleetReminderRouteDeps {
  fleetReminders: ReminderService;
}

/** Reminders: `POST /v3/new/fleet/reminder/{add|update|delete|list|done}` (enterprise only). */
export function registerFleetReminderRoutes(api: ApiRegistry, s: FleetReminderRouteDeps) {
  const tag = "Fleet";
  const r = s.fleetReminders;
  api.add({
    method: "post",
    path: "/v3/new/fleet/reminder/list",
    need: "read",
    tag,
    summary: "Reminders with their state today (ok, dueSoon, overdue), overdue first",
    body: S.listBody,
    handler: ({ body, c }) => r.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/reminder/add",
    need: "editData",
    tag,
    summary:
      "Add a reminder: name, type, interval (every N weeks/months/years, km or engine hours), advance (≤ interval), startDate, email, lastDone, imei",
    body: S.addBody,
    handler: ({ body, c }) => r.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/reminder/update",
    need: "editData",
    tag,
    summary: "Change a reminder (same fields as add, with its id)",
    body: S.updateBody,
    handler: ({ body, c }) => r.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/reminder/delete",
    need: "editData",
    tag,
    summary: "Delete reminders",
    body: S.deleteBody,
    handler: ({ body, c }) => r.remove(c.var.session, body.ids),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/reminder/done",
    need: "editData",
    tag,
    summary: "Record a maintenance (date, note): the next interval starts that day",
    body: S.doneBody,
    handler: ({ body, c }) => r.done(c.var.session, body),
  });
}

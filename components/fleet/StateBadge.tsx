import type { translator } from "../../lib/i18n/i18n.ts";
import type { ExpiryState } from "../../modules/fleet/model.ts";

/** "Expiring soon" / "expired" beside a licence or insurance date; nothing when valid. */
export function StateBadge(
  { t, state }: { t: ReturnType<typeof translator>; state: ExpiryState },
) {
  if (state === "none" || state === "valid") return null;
  return (
    <span class={`badge ${state === "expired" ? "bad" : "warn"}`}>
      {t(`fleet.states.${state}`)}
    </span>
  );
}

import type { TFunction } from "i18next";

/** A command status (or work-mode task state) as a coloured chip. */
export function StatusBadge({ t, status, kind = "statuses" }: {
  t: TFunction;
  status: string;
  kind?: "statuses" | "taskStates";
}) {
  return (
    <span class={`cmd-status cmd-status-${status}`} data-status={status}>
      {t(`commands.${kind}.${status}`)}
    </span>
  );
}

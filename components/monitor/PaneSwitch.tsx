/** Which half of a monitor page a phone shows: the map or the side list/form (issue 15). */
export type Pane = "map" | "list";

/**
 * Map | List segmented control of the monitor pages. Only phones and narrow windows show it
 * (static/app.css): there the page shows one pane at a time, chosen here; on wider screens
 * both panes stand side by side and the choice has no effect.
 */
export function PaneSwitch(
  { pane, onChange, listLabel, t }: {
    pane: Pane;
    onChange: (pane: Pane) => void;
    /** The side pane's name ("List", "Track"). */
    listLabel: string;
    t: (k: string) => string;
  },
) {
  const item = (key: Pane, label: string) => (
    <button
      type="button"
      role="tab"
      data-pane={key}
      aria-selected={pane === key}
      class={pane === key ? "active" : ""}
      onClick={() => onChange(key)}
    >
      {label}
    </button>
  );
  return (
    <div class="mon-panes" role="tablist" aria-label={t("monitor.panes.label")}>
      {item("map", t("monitor.panes.map"))}
      {item("list", listLabel)}
    </div>
  );
}

import type { TFunction } from "i18next";
import type { Filters, GroupRow, ModelInfo, Stats } from "./types.ts";
import { ACTIVATION_FILTERS } from "../../modules/devices/model.ts";

interface StatsProps {
  t: TFunction;
  stats: Stats | null;
  filters: Filters;
  onPick: (patch: Partial<Filters>) => void;
}

/** Counts of the selected subtree; a click filters the list by that state. */
export function StatsBar({ t, stats, filters, onPick }: StatsProps) {
  const items: [keyof Stats, Partial<Filters>, boolean][] = [
    ["total", { status: "", online: false, activation: "", enabled: "", followed: false }, false],
    ["online", { status: "", online: true }, filters.online],
    ["offline", { status: "4", online: false }, filters.status === "4"],
    ["inactive", { activation: "notActivated" }, filters.activation === "notActivated"],
    ["expiring", { activation: "expiring" }, filters.activation === "expiring"],
    ["expired", { activation: "expired" }, filters.activation === "expired"],
    ["followed", { followed: true }, filters.followed],
    ["disabled", { enabled: "false" }, filters.enabled === "false"],
  ];
  return (
    <div class="dev-stats" role="group" aria-label={t("devices.title")}>
      {items.map(([key, patch, active]) => (
        <button
          key={key}
          type="button"
          class={`stat stat-${key}${active ? " active" : ""}`}
          data-stat={key}
          onClick={() => onPick(patch)}
        >
          <strong>{stats ? stats[key] : "–"}</strong>
          <span>{t(`devices.stats.${key}`)}</span>
        </button>
      ))}
    </div>
  );
}

interface FilterProps {
  t: TFunction;
  filters: Filters;
  set: (patch: Partial<Filters>) => void;
  groups: GroupRow[];
  models: ModelInfo[];
  modelName: (mcType: string) => string;
}

/** Status, model, group, expiry, activation, enabled, bound and bindable selects of spec §2/§4. */
export function FilterBar({ t, filters, set, groups, models, modelName }: FilterProps) {
  const select = (
    name: keyof Filters,
    options: [string, string][],
    all: string,
  ) => (
    <select
      id={`filter-${name}`}
      class="input"
      aria-label={all}
      value={String(filters[name])}
      onChange={(e) =>
        set({
          [name]: (e.target as HTMLSelectElement).value,
          // A status choice replaces the statistics bar's "online" filter.
          ...(name === "status" ? { online: false } : {}),
        })}
    >
      <option value="">{all}</option>
      {options.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
    </select>
  );
  return (
    <div class="dev-filters">
      {select(
        "status",
        ["1", "2", "3", "4", "5"].map((v) => [v, t(`devices.statusFilter.${v}`)]),
        t("devices.statusFilter.all"),
      )}
      {select(
        "mcType",
        models.map((m) => [m.mcType, modelName(m.mcType)]),
        t("devices.modelFilter.all"),
      )}
      {select(
        "groupId",
        groups.map((g) => [g.id, g.name ?? t("devices.defaultGroup")]),
        t("devices.groupFilter.all"),
      )}
      {select(
        "expiryWithin",
        ["7", "30", "60"].map((v) => [v, t(`devices.expiryFilter.${v}`)]),
        t("devices.expiryFilter.all"),
      )}
      {select(
        "activation",
        ACTIVATION_FILTERS
          .map((v) => [v, t(`devices.activationFilter.${v}`)]),
        t("devices.activationFilter.all"),
      )}
      {select(
        "enabled",
        ["true", "false"].map((v) => [v, t(`devices.enabledFilter.${v}`)]),
        t("devices.enabledFilter.all"),
      )}
      {select(
        "bound",
        ["true", "false"].map((v) => [v, t(`devices.boundFilter.${v}`)]),
        t("devices.boundFilter.all"),
      )}
      {select(
        "appBindable",
        ["true", "false"].map((v) => [v, t(`devices.appBindable.filter.${v}`)]),
        t("devices.appBindable.filter.all"),
      )}
    </div>
  );
}

interface AdvancedProps {
  t: TFunction;
  filters: Filters;
  onApply: (patch: Partial<Filters>) => void;
  onReset: () => void;
}

/** Advanced search: a list of IMEIs, SIM, activation period, followed and own-only. */
export function AdvancedSearch({ t, filters, onApply, onReset }: AdvancedProps) {
  const draft = { ...filters };
  const field = (name: "sim" | "activatedFrom" | "activatedTo", type = "text") => (
    <label class="field">
      <span class="field-label">{t(`devices.advanced.${name}`)}</span>
      <input
        id={`adv-${name}`}
        class="input"
        type={type}
        maxLength={20}
        defaultValue={filters[name]}
        onInput={(e) => (draft[name] = (e.target as HTMLInputElement).value)}
      />
    </label>
  );
  return (
    <form
      class="dev-advanced"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
    >
      <label class="field imeis">
        <span class="field-label">{t("devices.advanced.imeis")}</span>
        <textarea
          id="adv-imeis"
          rows={3}
          defaultValue={filters.imeis}
          onInput={(e) => (draft.imeis = (e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="adv-col">
        {field("sim")}
        <div class="adv-dates">
          {field("activatedFrom", "date")}
          {field("activatedTo", "date")}
        </div>
      </div>
      <div class="adv-col">
        <label class="toggle">
          <input
            type="checkbox"
            defaultChecked={filters.followed}
            onChange={(e) => (draft.followed = (e.target as HTMLInputElement).checked)}
          />
          {t("devices.advanced.followedOnly")}
        </label>
        <label class="toggle">
          <input
            type="checkbox"
            defaultChecked={filters.ownOnly}
            onChange={(e) => (draft.ownOnly = (e.target as HTMLInputElement).checked)}
          />
          {t("devices.advanced.ownOnly")}
        </label>
        <div class="adv-buttons">
          <button type="button" class="btn" onClick={onReset}>{t("devices.advanced.reset")}</button>
          <button type="submit" id="adv-apply" class="btn btn-primary">
            {t("devices.advanced.apply")}
          </button>
        </div>
      </div>
    </form>
  );
}

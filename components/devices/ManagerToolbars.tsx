/** The /devices toolbars: search (with global search and advanced filters) and the actions. */
import { GlobalSearch } from "./GlobalSearch.tsx";
import { download } from "./transfer_io.ts";
import {
  bulk,
  changed,
  type DeviceManagerState,
  EQ,
  fail,
  needPick,
  type PickDialog,
  picked,
  setFilters,
} from "./manager_state.ts";

export function SearchToolbar({ s }: { s: DeviceManagerState }) {
  const { t } = s, keyword = s.filters.value.keyword, advanced = s.advanced.value;
  const kw = keyword.trim();
  const shortDigits = /^\d+$/.test(kw) && (kw.length < 5 || kw.length > 15);
  return (
    <div class="toolbar dev-search">
      <div class="search-box">
        <input
          id="device-search"
          class="input"
          type="search"
          placeholder={t("devices.search.placeholder")}
          aria-label={t("devices.search.label")}
          aria-invalid={shortDigits || undefined}
          maxLength={50}
          value={keyword}
          onInput={(e) => setFilters(s, { keyword: (e.target as HTMLInputElement).value })}
        />
        {shortDigits && <span class="field-error">{t("devices.search.imeiDigits")}</span>}
      </div>
      <GlobalSearch t={t} onOpen={(imei) => (s.dialog.value = { kind: "detail", imei })} />
      <button
        type="button"
        id="toggle-advanced"
        class={`btn${advanced ? " active" : ""}`}
        aria-expanded={advanced}
        onClick={() => (s.advanced.value = !advanced)}
      >
        {t("devices.advanced.toggle")}
      </button>
      <span class="grow" />
      <button type="button" class="btn" onClick={() => changed(s)}>
        ⟳ {t("devices.actions.refresh")}
      </button>
    </div>
  );
}

function Action(
  { id, label, primary, onClick }: {
    id: string;
    label: string;
    primary?: boolean;
    onClick: () => void;
  },
) {
  return (
    <button type="button" id={id} class={primary ? "btn btn-primary" : "btn"} onClick={onClick}>
      {label}
    </button>
  );
}

/** Actions on the ticked devices ([id suffix, dialog]), in the order they are shown. */
const EDIT_PICKS: [string, PickDialog][] = [
  ["transfer", "transfer"],
  ["set-group", "setGroup"],
  ["batch-edit", "batchEdit"],
  ["enable", "enable"],
  ["disable", "disable"],
];

/** The edit actions (users who may edit devices). */
function EditActions({ s }: { s: DeviceManagerState }) {
  const { t, me } = s;
  return (
    <>
      <Action
        id="action-import"
        primary
        label={`+ ${t("devices.actions.import")}`}
        onClick={() => (s.dialog.value = { kind: "import" })}
      />
      {EDIT_PICKS.map(([id, kind]) => (
        <Action
          key={id}
          id={`action-${id}`}
          label={t(`devices.actions.${kind}`)}
          onClick={() => needPick(s, kind)}
        />
      ))}
      <Action
        id="action-allow"
        label={t("devices.actions.allowActivation")}
        onClick={() => bulk(s, "allowActivation", {})}
      />
      <Action
        id="action-user-expiry"
        label={t("devices.actions.userExpiry")}
        onClick={() => needPick(s, "userExpiry")}
      />
      {me.isAdmin && (
        <Action
          id="action-platform-expiry"
          label={t("devices.actions.platformExpiry")}
          onClick={() => needPick(s, "platformExpiry")}
        />
      )}
      <Action
        id="action-images"
        label={t("devices.actions.images")}
        onClick={() => (s.dialog.value = { kind: "images" })}
      />
    </>
  );
}

/** `body`: the list query (filters of the selected account), for the export. */
export function ActionToolbar({ s, body }: { s: DeviceManagerState; body: object }) {
  const { t, me } = s, count = picked(s).length;
  return (
    <div class="toolbar dev-actions">
      {me.canEdit && <EditActions s={s} />}
      {me.canRenew && (
        <Action
          id="action-renew"
          label={t("devices.actions.renew")}
          onClick={() => needPick(s, "renew")}
        />
      )}
      <Action
        id="action-groups"
        label={t("devices.actions.groups")}
        onClick={() => (s.dialog.value = { kind: "groups" })}
      />
      <Action
        id="action-export"
        label={`⤓ ${t("devices.actions.export")}`}
        onClick={() => download(`${EQ}/exportEquipment`, body).catch(fail(s))}
      />
      <span class="grow" />
      {count > 0 && <span class="selected-count">{t("devices.actions.selected", { count })}</span>}
    </div>
  );
}

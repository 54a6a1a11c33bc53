import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { AccountTree } from "../accounts/AccountTree.tsx";
import { useDebounced } from "../accounts/hooks.ts";
import type { AccountRef } from "../accounts/types.ts";
import { DataTable } from "./DataTable.tsx";
import { usePaged } from "./usePaged.ts";
import { toast } from "../ui/Toast.tsx";
import { TabButtons } from "../ui/TabButtons.tsx";

/** Chosen IMEIs shown as removable chips under the paste box. */
const CHIPS = 60;

interface DeviceRow {
  imei: string;
  deviceName: string;
  mcType: string;
  status: string;
  userAccount: string;
}

/** IMEIs in pasted text: any run of 15 digits, separated by anything. */
export function parseImeis(text: string): { imeis: string[]; invalid: string[] } {
  const tokens = text.split(/[\s,;，；]+/).map((x) => x.trim()).filter(Boolean);
  const imeis = [...new Set(tokens.filter((x) => /^\d{15}$/.test(x)))];
  return { imeis, invalid: tokens.filter((x) => !/^\d{15}$/.test(x)) };
}

interface Props {
  t: TFunction;
  root: AccountRef;
  selected: string[];
  onChange: (imeis: string[]) => void;
  /** At most this many devices per batch. */
  max: number;
}

/** Devices chosen from the account tree (with a device list per account) or pasted as IMEIs. */
export function DevicePicker({ t, root, selected, onChange, max }: Props) {
  const [tab, setTab] = useState<"tree" | "paste">("tree");
  const [account, setAccount] = useState<AccountRef>(root);
  const [keyword, setKeyword] = useState("");
  const q = useDebounced(keyword.trim());
  // Kept here so the pasted text survives switching tabs.
  const [pasted, setPasted] = useState("");
  const chosen = new Set(selected);

  const list = usePaged<DeviceRow>(
    (page) =>
      api("/v3/new/newEquipment/queryEquipmentList", {
        ...page,
        userId: account.id,
        ...(q ? { keyword: q } : {}),
      }),
    [account.id, q],
  );
  const { firstPage } = list;

  const toggle = (imeis: string[], on: boolean) => {
    const next = new Set(selected);
    for (const i of imeis) on ? next.add(i) : next.delete(i);
    if (next.size > max) return toast(t("commands.ui.tooManyDevices", { max }), "error");
    onChange([...next]);
  };

  return (
    <div class="cmd-picker">
      <div class="cmd-tabs" role="tablist">
        <TabButtons
          tabs={["tree", "paste"] as const}
          active={tab}
          onSelect={setTab}
          label={(k) => t(`commands.ui.pick.${k}`)}
        />
        <span class="cmd-chosen" data-testid="chosen-count">
          {t("commands.ui.chosen", { count: selected.length })}
          {selected.length > 0 && (
            <button
              type="button"
              class="link-btn"
              onClick={() => onChange([])}
            >
              {t("commands.ui.clear")}
            </button>
          )}
        </span>
      </div>
      {tab === "tree"
        ? (
          <TreeTab
            t={t}
            root={root}
            account={account}
            onAccount={(a) => {
              setAccount(a);
              firstPage();
            }}
            keyword={keyword}
            onKeyword={setKeyword}
            list={list}
            chosen={chosen}
            toggle={toggle}
          />
        )
        : (
          <PasteTab
            t={t}
            selected={selected}
            toggle={toggle}
            pasted={pasted}
            setPasted={setPasted}
          />
        )}
    </div>
  );
}

type Toggle = (imeis: string[], on: boolean) => void;

/** Pick an account in the tree, then tick its devices page by page. */
function TreeTab(
  { t, root, account, onAccount, keyword, onKeyword, list, chosen, toggle }: {
    t: TFunction;
    root: AccountRef;
    account: AccountRef;
    onAccount: (a: AccountRef) => void;
    keyword: string;
    onKeyword: (k: string) => void;
    list: ReturnType<typeof usePaged<DeviceRow>>;
    chosen: Set<string>;
    toggle: Toggle;
  },
) {
  const { rows, loading, paging } = list;
  const allOn = rows.length > 0 && rows.every((r) => chosen.has(r.imei));
  return (
    <div class="cmd-picker-body">
      <AccountTree
        t={t}
        root={root}
        selectedId={account.id}
        onSelect={onAccount}
        version={0}
      />
      <div class="cmd-devices">
        <input
          class="input"
          type="search"
          placeholder={t("commands.ui.searchDevice")}
          aria-label={t("commands.ui.searchDevice")}
          value={keyword}
          onInput={(e) => onKeyword((e.target as HTMLInputElement).value)}
        />
        <DataTable
          t={t}
          columns={5}
          loading={loading}
          empty={t("commands.ui.noDevices")}
          count={rows.length}
          head={
            <>
              <th class="col-check">
                <input
                  type="checkbox"
                  aria-label={t("commands.ui.selectPage")}
                  checked={allOn}
                  disabled={!rows.length}
                  onChange={(e) =>
                    toggle(rows.map((r) => r.imei), (e.target as HTMLInputElement).checked)}
                />
              </th>
              <th>{t("commands.columns.imei")}</th>
              <th>{t("commands.columns.device")}</th>
              <th>{t("commands.columns.model")}</th>
              <th>{t("commands.columns.status")}</th>
            </>
          }
          paging={paging}
        >
          {rows.map((r) => (
            <tr key={r.imei} class={chosen.has(r.imei) ? "checked" : undefined}>
              <td class="col-check">
                <input
                  type="checkbox"
                  aria-label={r.imei}
                  checked={chosen.has(r.imei)}
                  onChange={(e) => toggle([r.imei], (e.target as HTMLInputElement).checked)}
                />
              </td>
              <td class="mono">{r.imei}</td>
              <td>{r.deviceName}</td>
              <td>{r.mcType}</td>
              <td>
                <span class={`dev-dot dev-${r.status}`} />
                {t(`commands.deviceStatus.${r.status}`, { defaultValue: r.status })}
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </div>
  );
}

/** Paste IMEIs; the valid ones are added, the others stay in the box to fix. */
function PasteTab(
  { t, selected, toggle, pasted, setPasted }: {
    t: TFunction;
    selected: string[];
    toggle: Toggle;
    pasted: string;
    setPasted: (text: string) => void;
  },
) {
  const parsed = parseImeis(pasted);
  return (
    <div class="cmd-paste">
      <textarea
        class="input"
        rows={8}
        name="imeis"
        placeholder={t("commands.ui.pastePlaceholder")}
        value={pasted}
        onInput={(e) => setPasted((e.target as HTMLTextAreaElement).value)}
      />
      <div class="toolbar">
        <span class="field-hint">
          {t("commands.ui.pasteSummary", {
            valid: parsed.imeis.length,
            invalid: parsed.invalid.length,
          })}
        </span>
        <button
          type="button"
          class="btn"
          disabled={!parsed.imeis.length}
          onClick={() => {
            toggle(parsed.imeis, true);
            setPasted(parsed.invalid.join("\n"));
          }}
        >
          {t("commands.ui.addPasted")}
        </button>
      </div>
      {selected.length > 0 && (
        <div
          class="cmd-chips"
          aria-label={t("commands.ui.chosen", { count: selected.length })}
        >
          {selected.slice(0, CHIPS).map((i) => (
            <span key={i}>
              {i}
              <button
                type="button"
                aria-label={t("commands.ui.remove", { imei: i })}
                onClick={() => toggle([i], false)}
              >
                ×
              </button>
            </span>
          ))}
          {selected.length > CHIPS && (
            <em class="field-hint">
              {t("commands.ui.more", { count: selected.length - CHIPS })}
            </em>
          )}
        </div>
      )}
      {parsed.invalid.length > 0 && (
        <p class="field-error">
          {t("commands.ui.invalidImeis", { list: parsed.invalid.slice(0, 5).join(", ") })}
        </p>
      )}
    </div>
  );
}

import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { useDebounced } from "../accounts/hooks.ts";
import { DataTable } from "../commands/DataTable.tsx";
import { usePaged } from "../commands/usePaged.ts";

/** Chosen devices shown as chips; the rest are counted. */
const CHIPS = 30;

interface DeviceRow {
  imei: string;
  deviceName: string;
  mcType: string;
}

interface Props {
  t: TFunction;
  /** The bound IMEIs. */
  selected: string[];
  onChange: (imeis: string[]) => void;
  /** Most devices a fence binds (the API's limit). */
  max: number;
  /**
   * Offer the sub-accounts' devices too (fleet routes watch the whole enterprise tree); a
   * fence binds its owner's devices only.
   */
  subtree?: boolean;
}

/**
 * Devices a fence applies to, picked from the account's own devices (a fence is evaluated
 * for its owner's devices only, so sub-accounts' devices are not offered): search by name or
 * IMEI, tick them, see the choice as chips. None ticked means every device of the account.
 */
export function FenceDevicePicker({ t, selected, onChange, max, subtree = false }: Props) {
  const scope = subtree ? {} : { ownOnly: true };
  const [keyword, setKeyword] = useState("");
  const q = useDebounced(keyword.trim());
  /** Names of devices seen so far, for the chips. */
  const [names, setNames] = useState<Record<string, string>>({});
  const chosen = new Set(selected);
  const { rows, loading, paging, firstPage } = usePaged<DeviceRow>(
    (page) =>
      api("/v3/new/newEquipment/queryEquipmentList", {
        ...page,
        ...scope,
        ...(q ? { keyword: q } : {}),
      }),
    [q],
  );
  useEffect(() => firstPage(), [q]);
  useEffect(() => {
    if (rows.length) learn(rows);
  }, [rows]);
  // The names of devices bound before the dialog opened (at most the first page of chips).
  useEffect(() => {
    if (!selected.length) return;
    api<{ list: DeviceRow[] }>("/v3/new/newEquipment/queryEquipmentList", {
      pageNum: 1,
      pageSize: 100,
      ...scope,
      imeis: selected.slice(0, 100),
    }).then((d) => learn(d.list), () => {});
  }, []);
  const learn = (list: DeviceRow[]) =>
    setNames((n) => ({ ...n, ...Object.fromEntries(list.map((r) => [r.imei, r.deviceName])) }));

  const toggle = (imeis: string[], on: boolean) => {
    const next = new Set(selected);
    for (const i of imeis) on ? next.add(i) : next.delete(i);
    if (next.size <= max) onChange([...next]);
  };
  const allOn = rows.length > 0 && rows.every((r) => chosen.has(r.imei));

  return (
    <div class="gf-picker" data-testid="fence-devices">
      <div class="gf-picker-head">
        <input
          class="input"
          type="search"
          value={keyword}
          maxLength={50}
          placeholder={t("geofences.devices.search")}
          aria-label={t("geofences.devices.search")}
          onInput={(e) => setKeyword((e.target as HTMLInputElement).value)}
        />
        <span class="muted" data-testid="fence-devices-count">
          {selected.length
            ? t("geofences.devices.chosen", { count: selected.length })
            : t("geofences.devices.all")}
        </span>
      </div>
      <DataTable
        t={t}
        columns={3}
        loading={loading}
        empty={t(q ? "geofences.devices.noMatch" : "geofences.devices.none")}
        count={rows.length}
        class="gf-picker-table"
        head={
          <>
            <th class="col-check">
              <input
                type="checkbox"
                aria-label={t("geofences.devices.selectPage")}
                checked={allOn}
                disabled={!rows.length}
                onChange={(e) =>
                  toggle(rows.map((r) => r.imei), (e.target as HTMLInputElement).checked)}
              />
            </th>
            <th>{t("geofences.devices.name")}</th>
            <th>{t("geofences.devices.imei")}</th>
          </>
        }
        paging={paging}
      >
        {rows.map((r) => (
          <tr
            key={r.imei}
            class={chosen.has(r.imei) ? "checked" : undefined}
            onClick={(e) => {
              // The whole row toggles; the checkbox handles its own clicks.
              if ((e.target as HTMLElement).tagName !== "INPUT") {
                toggle([r.imei], !chosen.has(r.imei));
              }
            }}
          >
            <td class="col-check">
              <input
                type="checkbox"
                name="imeis"
                value={r.imei}
                aria-label={r.deviceName || r.imei}
                checked={chosen.has(r.imei)}
                onChange={(e) => toggle([r.imei], (e.target as HTMLInputElement).checked)}
              />
            </td>
            <td>{r.deviceName}</td>
            <td class="mono">{r.imei}</td>
          </tr>
        ))}
      </DataTable>
      {selected.length > 0 && (
        <div
          class="cmd-chips"
          aria-label={t("geofences.devices.chosen", { count: selected.length })}
        >
          {selected.slice(0, CHIPS).map((i) => (
            <span key={i} title={i}>
              {names[i] || i}
              <button
                type="button"
                aria-label={t("geofences.devices.remove", { name: names[i] || i })}
                onClick={() => toggle([i], false)}
              >
                ×
              </button>
            </span>
          ))}
          {selected.length > CHIPS && (
            <em class="field-hint">
              {t("geofences.devices.more", { count: selected.length - CHIPS })}
            </em>
          )}
          <button type="button" class="link-btn" onClick={() => onChange([])}>
            {t("geofences.devices.clear")}
          </button>
        </div>
      )}
    </div>
  );
}

import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import {
  COMMON_ADDRESS_COLOR,
  COMMON_ADDRESS_MAX,
  COMMON_ADDRESS_NAME_MAX,
  COMMON_ADDRESS_RADIUS,
  type CommonAddress,
} from "../../modules/commonaddress/model.ts";

const BASE = "/v3/new/device/commonAddress";

/** A new row: near the device's last fix when it has one. */
function fresh(at: { lat: number; lng: number } | null): CommonAddress {
  return {
    color: COMMON_ADDRESS_COLOR,
    addressName: "",
    radius: COMMON_ADDRESS_RADIUS.default,
    latitude: at?.lat ?? 0,
    longitude: at?.lng ?? 0,
  };
}

/**
 * The device dialog's common addresses (commonAddressList): named places with a colour and
 * a radius, at most COMMON_ADDRESS_MAX, saved together; the monitor map draws them.
 */
export function AddressesTab({ t, imei, readOnly }: {
  t: TFunction;
  imei: string;
  readOnly: boolean;
}) {
  const [rows, setRows] = useState<CommonAddress[] | null>(null);
  const [at, setAt] = useState<{ lat: number; lng: number } | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const label = (k: string) => t(`demo.addresses.${k}`);
  useEffect(() => {
    api<{ commonAddressList: CommonAddress[] }>(`${BASE}/list`, { imei }).then(
      (r) => setRows(r.commonAddressList),
      (e) => setError((e as Error).message),
    );
    // New rows start at the device's last fix, when it has one.
    api<{ lat: (number | null)[]; lng: (number | null)[] }>(
      `/v3/new/monitor/objects?imei=${imei}`,
    ).then((o) => {
      if (o.lat[0] != null && o.lng[0] != null) setAt({ lat: o.lat[0], lng: o.lng[0] });
    }, () => {});
  }, [imei]);
  const patch = (i: number, p: Partial<CommonAddress>) =>
    setRows(rows!.map((r, j) => (j === i ? { ...r, ...p } : r)));
  const save = async () => {
    setBusy(true);
    try {
      const r = await api<{ commonAddressList: CommonAddress[] }>(`${BASE}/save`, {
        imei,
        commonAddressList: rows,
      });
      setRows(r.commonAddressList);
      setError("");
      toast(label("saved"));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  if (!rows) return <div class="table-loading">{error || t("devices.loading")}</div>;
  const num = (v: string) => (v.trim() === "" ? 0 : Number(v));
  return (
    <div class="addresses-tab">
      <p class="muted">{label("intro")}</p>
      <div class="table-wrap">
        <table class="data addresses-table">
          <thead>
            <tr>
              <th>{label("color")}</th>
              <th>{label("name")}</th>
              <th>{label("radius")}</th>
              <th>{label("latitude")}</th>
              <th>{label("longitude")}</th>
              {!readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={6} class="empty">{label("none")}</td>
              </tr>
            )}
            {rows.map((r, i) => (
              <tr key={i} data-address={i}>
                <td>
                  <input
                    type="color"
                    aria-label={label("color")}
                    value={r.color}
                    disabled={readOnly}
                    onInput={(e) => patch(i, { color: (e.target as HTMLInputElement).value })}
                  />
                </td>
                <td>
                  <input
                    class="input"
                    name="addressName"
                    aria-label={label("name")}
                    maxLength={COMMON_ADDRESS_NAME_MAX}
                    value={r.addressName}
                    disabled={readOnly}
                    onInput={(e) => patch(i, { addressName: (e.target as HTMLInputElement).value })}
                  />
                </td>
                {(["radius", "latitude", "longitude"] as const).map((k) => (
                  <td key={k}>
                    <input
                      class="input"
                      name={k}
                      type="number"
                      aria-label={label(k)}
                      step={k === "radius" ? 10 : 0.000001}
                      min={k === "radius" ? COMMON_ADDRESS_RADIUS.min : undefined}
                      max={k === "radius" ? COMMON_ADDRESS_RADIUS.max : undefined}
                      value={String(r[k])}
                      disabled={readOnly}
                      onInput={(e) => patch(i, { [k]: num((e.target as HTMLInputElement).value) })}
                    />
                  </td>
                ))}
                {!readOnly && (
                  <td>
                    <button
                      type="button"
                      class="link-btn danger"
                      onClick={() => setRows(rows.filter((_, j) => j !== i))}
                    >
                      {label("remove")}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!readOnly && rows.length < COMMON_ADDRESS_MAX && (
        <button
          type="button"
          class="btn add-row"
          id="add-address"
          onClick={() => setRows([...rows, fresh(at)])}
        >
          + {label("add")}
        </button>
      )}
      {readOnly ? <p class="dialog-note">{t("devices.detail.readOnly")}</p> : (
        <div class="tab-foot">
          {error && <div class="form-error" role="alert">{error}</div>}
          <button
            type="button"
            class="btn btn-primary tab-save"
            id="save-addresses"
            disabled={busy}
            onClick={save}
          >
            {busy ? t("ui.loading") : t("devices.detail.save")}
          </button>
        </div>
      )}
    </div>
  );
}

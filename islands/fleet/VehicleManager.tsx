import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import { Field } from "../../components/ui/Field.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { PagerFor } from "../../components/ui/Pagination.tsx";
import { StateBadge } from "../../components/fleet/StateBadge.tsx";
import { FleetTable, FleetToolbar, RowActions } from "../../components/fleet/FleetList.tsx";
import { confirmDelete, useManagedList } from "../../components/fleet/list_data.tsx";
import {
  type DriverRow,
  FLEET_LIMITS,
  FUEL_TYPES,
  type Page,
  VEHICLE_STATUSES,
  type VehicleRow,
  type VehicleStatus,
} from "../../modules/fleet/model.ts";

type Translate = ReturnType<typeof translator>;
type Form = Record<string, string>;
const TEXT = ["brand", "model", "colour", "chassis", "cargo"] as const;
const NUMBERS = ["seats", "wheels", "tonnage", "productionYear", "maxSpeed"] as const;

const empty = (): Form => ({
  plate: "",
  imei: "",
  status: "vacant",
  brand: "",
  model: "",
  colour: "",
  chassis: "",
  fuelType: "",
  cargo: "",
  seats: "",
  wheels: "",
  tonnage: "",
  productionYear: "",
  maxSpeed: "",
  insuranceEffective: "",
  insuranceExpire: "",
  driverId: "",
});

/** /fleetVehicle: the enterprise's vehicles — status, bound device, driver, insurance. */
function VehicleManager({ lang }: { lang: Lang }) {
  const t = useMemo(() => translator(lang), [lang]);
  const list = useManagedList<VehicleRow, { keyword?: string; status?: VehicleStatus }>(
    "/v3/new/fleet/vehicle/list",
  );
  const { page, setPage, keyword, setKeyword, filter, data, editing, setEditing, reload } = list;
  const remove = (v: VehicleRow) =>
    confirmDelete(
      t("fleet.common.confirmDelete", { name: v.plate }),
      "/v3/new/fleet/vehicle/delete",
      v.id,
      t("fleet.common.deleted"),
      reload,
    );
  return (
    <div class="fl-manager">
      <div class="page-head">
        <h1>{t("fleet.vehicle.title")}</h1>
        <button
          type="button"
          class="btn btn-primary"
          id="fl-add-vehicle"
          onClick={() => setEditing("new")}
        >
          + {t("fleet.vehicle.add")}
        </button>
      </div>
      <FleetToolbar
        t={t}
        keyword={keyword}
        setKeyword={setKeyword}
        searchLabel={t("fleet.vehicle.search")}
        filter={{
          label: t("fleet.vehicle.status"),
          value: filter.status ?? "",
          options: VEHICLE_STATUSES.map((s) => ({
            value: s,
            label: t(`fleet.vehicle.statuses.${s}`),
          })),
          onChange: (v) => {
            list.refilter({ status: (v as VehicleStatus) || undefined });
          },
        }}
        onQuery={(kw) => {
          list.refilter({ keyword: kw });
        }}
      />
      <FleetTable
        t={t}
        empty={data?.total === 0}
        filtered={Boolean(filter.keyword || filter.status)}
        headers={[
          t("fleet.vehicle.plate"),
          t("fleet.vehicle.status"),
          t("fleet.vehicle.device"),
          t("fleet.vehicle.driver"),
          t("fleet.vehicle.currentDriver"),
          t("fleet.vehicle.insuranceExpire"),
        ]}
      >
        {data?.list.map((v) => (
          <tr key={v.id} data-testid="vehicle-row">
            <td class="fl-plate">
              <b>{v.plate}</b>
              <small>{[v.brand, v.model].filter(Boolean).join(" ")}</small>
            </td>
            <td>
              <span class={`fl-status ${v.status}`}>
                {t(`fleet.vehicle.statuses.${v.status}`)}
              </span>
            </td>
            <td>
              {v.imei ? (v.deviceName ? `${v.deviceName} · ${v.imei}` : v.imei) : "—"}
            </td>
            <td>{v.driverName || "—"}</td>
            <td>{v.currentDriverName || "—"}</td>
            <td>
              {v.insuranceExpire || "—"} <StateBadge t={t} state={v.insuranceState} />
            </td>
            <RowActions t={t} onEdit={() => setEditing(v)} onDelete={() => remove(v)} />
          </tr>
        ))}
      </FleetTable>
      {data && <PagerFor t={t} total={data.total} page={page} setPage={setPage} />}
      {editing && (
        <VehicleForm
          t={t}
          vehicle={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast(t("fleet.common.saved"));
            reload();
          }}
        />
      )}
      <Toasts />
    </div>
  );
}

function VehicleForm({ t, vehicle, onClose, onSaved }: {
  t: Translate;
  vehicle: VehicleRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form, setForm] = useState<Form>(() => {
    if (!vehicle) return empty();
    return Object.fromEntries(
      Object.keys(empty()).map((k) => {
        const v = vehicle[k as keyof VehicleRow];
        return [k, v === 0 ? "" : String(v ?? "")];
      }),
    );
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [vinWarning, setVinWarning] = useState("");
  const [drivers, setDrivers] = useState<DriverRow[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<Page<DriverRow>>("/v3/new/fleet/driver/list", { pageNum: 1, pageSize: 100 })
      .then((p) => setDrivers(p.list), () => {});
  }, []);
  const set = (k: string) => (e: Event) => {
    setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
    if (k === "chassis") setVinWarning("");
  };
  const save = async (force = false) => {
    setBusy(true);
    setErrors({});
    const body: Record<string, unknown> = { ...form, force };
    for (const k of NUMBERS) body[k] = form[k] === "" ? 0 : Number(form[k]);
    try {
      if (vehicle) await api("/v3/new/fleet/vehicle/update", { id: vehicle.id, ...body });
      else await api("/v3/new/fleet/vehicle/add", body);
      onSaved();
    } catch (e) {
      if (e instanceof ApiError && e.code === 48004) {
        setVinWarning(e.message);
        return;
      }
      const field = refusedField(e) ??
        (e instanceof ApiError && (e.code === 48003 || e.code === 42012) ? "imei" : null) ??
        (e instanceof ApiError && e.code === 48005 ? "insuranceExpire" : null);
      if (field) setErrors({ [field]: (e as ApiError).message });
      else toast(e instanceof ApiError ? e.message : String(e), "error");
    } finally {
      setBusy(false);
    }
  };
  const input = (k: string, type = "text", max: number = FLEET_LIMITS.textMax) => (
    <Field key={k} label={t(`fleet.vehicle.${k}`)} error={errors[k]} required={k === "plate"}>
      <input
        class="input"
        name={k}
        type={type}
        value={form[k]}
        maxLength={type === "text" ? max : undefined}
        min={type === "number" ? 0 : undefined}
        step={k === "tonnage" ? "0.1" : undefined}
        onInput={set(k)}
      />
    </Field>
  );
  return (
    <Modal
      title={t(vehicle ? "fleet.vehicle.editTitle" : "fleet.vehicle.add")}
      onClose={onClose}
      closeLabel={t("fleet.common.cancel")}
      width={760}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("fleet.common.cancel")}</button>
          {vinWarning && (
            <button
              type="button"
              class="btn btn-danger"
              id="fl-save-anyway"
              disabled={busy}
              onClick={() => save(true)}
            >
              {t("fleet.vehicle.vinWarning")}
            </button>
          )}
          <button
            type="button"
            class="btn btn-primary"
            id="fl-save-vehicle"
            disabled={busy}
            onClick={() => save()}
          >
            {t("fleet.common.save")}
          </button>
        </>
      }
    >
      {vinWarning && <p class="fl-warning" role="alert">{vinWarning}</p>}
      <div class="fl-form">
        {input("plate", "text", 20)}
        {input("imei", "text", 15)}
        <Field label={t("fleet.vehicle.status")}>
          <select class="input" name="status" value={form.status} onChange={set("status")}>
            {VEHICLE_STATUSES.map((s) => (
              <option key={s} value={s}>{t(`fleet.vehicle.statuses.${s}`)}</option>
            ))}
          </select>
        </Field>
        <Field label={t("fleet.vehicle.driver")} error={errors.driverId}>
          <select class="input" name="driverId" value={form.driverId} onChange={set("driverId")}>
            <option value="">{t("fleet.vehicle.noDriver")}</option>
            {drivers.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
          </select>
        </Field>
        {TEXT.map((k) =>
          input(k, "text", k === "colour" ? 20 : k === "chassis" ? 17 : FLEET_LIMITS.textMax)
        )}
        <Field label={t("fleet.vehicle.fuelType")}>
          <select class="input" name="fuelType" value={form.fuelType} onChange={set("fuelType")}>
            <option value="">—</option>
            {FUEL_TYPES.map((f) => (
              <option key={f} value={f}>{t(`fleet.vehicle.fuels.${f}`)}</option>
            ))}
          </select>
        </Field>
        {NUMBERS.map((k) => input(k, "number"))}
        {input("insuranceEffective", "date")}
        {input("insuranceExpire", "date")}
      </div>
    </Modal>
  );
}

export default island("fleet/VehicleManager", VehicleManager);

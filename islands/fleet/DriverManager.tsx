import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import { Field } from "../../components/ui/Field.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { PagerFor } from "../../components/ui/Pagination.tsx";
import { download, upload } from "../../components/devices/transfer_io.ts";
import { StateBadge } from "../../components/fleet/StateBadge.tsx";
import { FleetTable, FleetToolbar, RowActions } from "../../components/fleet/FleetList.tsx";
import { confirmDelete, failToast, useManagedList } from "../../components/fleet/list_data.tsx";
import {
  DRIVER_EXT_KEYS,
  type DriverRow,
  type ExpiryState,
  FLEET_LIMITS,
  type Page,
  type VehicleRow,
} from "../../modules/fleet/model.ts";

type Translate = ReturnType<typeof translator>;
const STATES: ExpiryState[] = ["valid", "expiringSoon", "expired", "none"];
const TEXT_FIELDS = [
  "driverNo",
  "licenseNo",
  "phone",
  "rfidCardNo",
  "registerPlace",
  "city",
] as const;
type Form = Record<string, string>;

const empty = (): Form => ({
  name: "",
  driverNo: "",
  licenseNo: "",
  phone: "",
  rfidCardNo: "",
  registerDate: "",
  expiredDate: "",
  registerPlace: "",
  city: "",
  maxSpeed: "",
  vehicleId: "",
  ext1: "",
  ext2: "",
  ext3: "",
  ext4: "",
});

/** /fleetDiver: the enterprise's drivers — search, add, edit, photo, delete, xlsx in and out. */
function DriverManager({ lang }: { lang: Lang }) {
  const t = useMemo(() => translator(lang), [lang]);
  const list = useManagedList<DriverRow, { keyword?: string; licenceState?: ExpiryState }>(
    "/v3/new/fleet/driver/list",
  );
  const { page, setPage, keyword, setKeyword, filter, data, editing, setEditing, reload } = list;
  const fail = failToast;
  const remove = (d: DriverRow) =>
    confirmDelete(
      t("fleet.common.confirmDelete", { name: d.name }),
      "/v3/new/fleet/driver/delete",
      d.id,
      t("fleet.common.deleted"),
      reload,
    );
  const importFile = async (file: File) => {
    const form = new FormData();
    form.set("file", file);
    try {
      const rows = await upload<{ row: number; ok: boolean; reason?: string }[]>(
        "/v3/new/fleet/driver/import",
        form,
      );
      const bad = rows.filter((r) => !r.ok);
      toast(t("fleet.driver.imported", { ok: rows.length - bad.length, failed: bad.length }));
      for (const r of bad.slice(0, 3)) {
        toast(t("fleet.driver.importRow", { row: r.row, reason: r.reason }), "error");
      }
      reload();
    } catch (e) {
      fail(e);
    }
  };
  return (
    <div class="fl-manager">
      <div class="page-head">
        <h1>{t("fleet.driver.title")}</h1>
        <div class="fl-actions">
          <button
            type="button"
            class="btn"
            onClick={() => download("/v3/new/fleet/driver/template").catch(fail)}
          >
            {t("fleet.common.template")}
          </button>
          <label class="btn">
            {t("fleet.common.import")}
            <input
              type="file"
              accept=".xlsx"
              hidden
              onChange={(e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) importFile(f);
                (e.target as HTMLInputElement).value = "";
              }}
            />
          </label>
          <button
            type="button"
            class="btn"
            onClick={() => download("/v3/new/fleet/driver/export", {}).catch(fail)}
          >
            {t("fleet.common.export")}
          </button>
          <button
            type="button"
            class="btn btn-primary"
            id="fl-add-driver"
            onClick={() => setEditing("new")}
          >
            + {t("fleet.driver.add")}
          </button>
        </div>
      </div>
      <FleetToolbar
        t={t}
        keyword={keyword}
        setKeyword={setKeyword}
        searchLabel={t("fleet.driver.search")}
        filter={{
          label: t("fleet.driver.licence"),
          value: filter.licenceState ?? "",
          options: STATES.map((s) => ({ value: s, label: t(`fleet.states.${s}`) })),
          onChange: (v) => {
            list.refilter({ licenceState: (v as ExpiryState) || undefined });
          },
        }}
        onQuery={(kw) => {
          list.refilter({ keyword: kw });
        }}
      />
      <FleetTable
        t={t}
        empty={data?.total === 0}
        filtered={Boolean(filter.keyword || filter.licenceState)}
        headers={[
          t("fleet.driver.name"),
          t("fleet.driver.driverNo"),
          t("fleet.driver.phone"),
          t("fleet.driver.rfidCardNo"),
          t("fleet.driver.expiredDate"),
          t("fleet.driver.vehicle"),
        ]}
      >
        {data?.list.map((d) => (
          <tr key={d.id} data-testid="driver-row">
            <td>
              <div class="fl-name">
                <Avatar d={d} />
                <span>{d.name}</span>
              </div>
            </td>
            <td>{d.driverNo || "—"}</td>
            <td>{d.phone || "—"}</td>
            <td>{d.rfidCardNo || "—"}</td>
            <td>
              {d.expiredDate || "—"} <StateBadge t={t} state={d.licenceState} />
            </td>
            <td>{d.vehiclePlate || "—"}</td>
            <RowActions t={t} onEdit={() => setEditing(d)} onDelete={() => remove(d)} />
          </tr>
        ))}
      </FleetTable>
      {data && <PagerFor t={t} total={data.total} page={page} setPage={setPage} />}
      {editing && (
        <DriverForm
          t={t}
          driver={editing === "new" ? null : editing}
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

function Avatar({ d }: { d: DriverRow }) {
  return d.avatar
    ? <img class="fl-avatar" src={`/v3/new/fleet/driver/avatar/${d.id}?v=${d.updatedAt}`} alt="" />
    : <span class="fl-avatar fl-initial" aria-hidden="true">{d.name.slice(0, 1)}</span>;
}

function DriverForm({ t, driver, onClose, onSaved }: {
  t: Translate;
  driver: DriverRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form, setForm] = useState<Form>(() =>
    driver
      ? Object.fromEntries(
        Object.keys(empty()).map((k) => [k, String(driver[k as keyof DriverRow] ?? "")]),
      )
      : empty()
  );
  if (driver && form.maxSpeed === "0") form.maxSpeed = "";
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [vehicles, setVehicles] = useState<VehicleRow[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<Page<VehicleRow>>("/v3/new/fleet/vehicle/list", { pageNum: 1, pageSize: 100 })
      .then((p) => setVehicles(p.list), () => {});
  }, []);
  const set = (k: string) => (e: Event) =>
    setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const save = async () => {
    setBusy(true);
    setErrors({});
    const body = { ...form, maxSpeed: form.maxSpeed === "" ? 0 : Number(form.maxSpeed) };
    try {
      if (driver) await api("/v3/new/fleet/driver/update", { id: driver.id, ...body });
      else await api("/v3/new/fleet/driver/add", body);
      onSaved();
    } catch (e) {
      const field = refusedField(e) ??
        (e instanceof ApiError && e.code === 48001 ? "rfidCardNo" : null) ??
        (e instanceof ApiError && e.code === 48002 ? "expiredDate" : null);
      if (field) setErrors({ [field]: (e as ApiError).message });
      else toast(e instanceof ApiError ? e.message : String(e), "error");
    } finally {
      setBusy(false);
    }
  };
  const photo = async (file: File) => {
    if (!driver) return;
    const data = new FormData();
    data.set("id", driver.id);
    data.set("file", file);
    try {
      await upload("/v3/new/fleet/driver/avatar", data);
      toast(t("fleet.common.saved"));
    } catch (e) {
      setErrors({ avatar: e instanceof ApiError ? e.message : String(e) });
    }
  };
  const input = (k: string, type = "text", max: number = FLEET_LIMITS.textMax) => (
    <Field key={k} label={t(`fleet.driver.${k}`)} error={errors[k]} required={k === "name"}>
      <input
        class="input"
        name={k}
        type={type}
        value={form[k]}
        maxLength={type === "text" ? max : undefined}
        max={type === "number" ? FLEET_LIMITS.maxSpeedKmh : undefined}
        min={type === "number" ? 0 : undefined}
        onInput={set(k)}
      />
    </Field>
  );
  return (
    <Modal
      title={t(driver ? "fleet.driver.editTitle" : "fleet.driver.add")}
      onClose={onClose}
      closeLabel={t("fleet.common.cancel")}
      width={720}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("fleet.common.cancel")}</button>
          <button
            type="button"
            class="btn btn-primary"
            id="fl-save-driver"
            disabled={busy}
            onClick={save}
          >
            {t("fleet.common.save")}
          </button>
        </>
      }
    >
      <div class="fl-form">
        {input("name", "text", FLEET_LIMITS.driverNameMax)}
        {TEXT_FIELDS.map((k) => input(k, "text", k === "phone" ? 20 : FLEET_LIMITS.textMax))}
        {input("registerDate", "date")}
        {input("expiredDate", "date")}
        {input("maxSpeed", "number")}
        <Field label={t("fleet.driver.vehicle")} error={errors.vehicleId}>
          <select class="input" name="vehicleId" value={form.vehicleId} onChange={set("vehicleId")}>
            <option value="">{t("fleet.driver.noVehicle")}</option>
            {vehicles.map((v) => <option key={v.id} value={v.id}>{v.plate}</option>)}
          </select>
        </Field>
        {DRIVER_EXT_KEYS.map((k) => input(k))}
        {driver && (
          <Field
            label={t("fleet.driver.avatar")}
            error={errors.avatar}
            hint={t("fleet.driver.avatarHint")}
          >
            <input
              class="input"
              type="file"
              accept="image/jpeg,image/png"
              onChange={(e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) photo(f);
              }}
            />
          </Field>
        )}
      </div>
    </Modal>
  );
}

export default island("fleet/DriverManager", DriverManager);

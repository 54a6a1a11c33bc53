import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { FieldGrid, type Spec, TabFooter, toValues, typedAll, useTabForm } from "./tabform.tsx";
import type { DeviceDetailData } from "./types.ts";
import { formatDate, formatTime } from "./types.ts";
import { upload } from "./transfer_io.ts";
import { useAction } from "./useAction.ts";
import { APPLICATION_TYPES as APP_TYPES } from "../../modules/devices/models.ts";

const EQ = "/v3/new/newEquipment";

interface TabProps {
  t: TFunction;
  detail: DeviceDetailData;
  readOnly: boolean;
  onSaved: () => void;
}

/** Basic tab: identity fields (spec §5 limits), dates, app binding and ringtone. */
export function BasicTab({ t, detail, readOnly, onSaved, canBindApp, modelName }: TabProps & {
  canBindApp: boolean;
  modelName: string;
}) {
  const b = detail.basic;
  const specs: Spec[] = [
    { name: "deviceName", max: 50, required: true },
    { name: "sim", max: 20 },
    { name: "iccid", max: 22 },
    { name: "imsi", max: 20 },
    { name: "sn", max: 50 },
    { name: "macAddress", max: 17 },
    {
      name: "applicationType",
      kind: "select",
      options: APP_TYPES.map((v) => ({ value: v, label: t(`devices.appTypes.${v}`) })),
    },
    { name: "reMark", kind: "textarea", max: 500, wide: true },
  ];
  const form = useTabForm(toValues(b), t);
  const save = () =>
    form.run(specs, async () => {
      await api(`${EQ}/updateBasic`, { imei: b.imei, ...typedAll(specs, form.values) });
      toast(t("devices.detail.saved"));
      onSaved();
    });
  const info: [string, string][] = [
    ["imei", b.imei],
    ["mcType", modelName],
    ["account", b.userAccount],
    ["activation", t(`devices.activation.${b.activation}`)],
    ["createdAt", formatTime(b.createdAt)],
    ["activationTime", formatTime(b.activationTime)],
    ["saleTime", formatTime(b.saleTime)],
    ["expiration", formatDate(b.expiration)],
    ["userExpiration", formatDate(b.userExpiration)],
  ];
  return (
    <div class="tab-body" data-tab="basic">
      <dl class="info-grid">
        {info.map(([k, v]) => (
          <div key={k}>
            <dt>{t(`devices.basic.${k}`)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <FieldGrid
        form={form}
        specs={specs}
        label={(n) => t(`devices.basic.${n}`)}
        readOnly={readOnly}
        idPrefix="basic"
      />
      <TabFooter t={t} form={form} readOnly={readOnly} onSave={save} />
      <AutoRenewal t={t} detail={detail} readOnly={readOnly} onSaved={onSaved} />
      <AppBinding t={t} detail={detail} readOnly={readOnly || !canBindApp} onSaved={onSaved} />
      <Ringtone t={t} detail={detail} readOnly={readOnly} onSaved={onSaved} />
      <AllocationLog t={t} imei={b.imei} />
    </div>
  );
}

interface Allocation {
  time: string;
  fromAccount: string;
  toAccount: string;
}

/** Where the device was sold or transferred, newest first (allocation log). */
function AllocationLog({ t, imei }: { t: TFunction; imei: string }) {
  const [entries, setEntries] = useState<Allocation[] | null>(null);
  useEffect(() => {
    api<Allocation[]>(`${EQ}/allocationLog`, { imei, limit: 20 }).then(
      setEntries,
      () => setEntries([]),
    );
  }, [imei]);
  return (
    <section class="sub-section">
      <h3>{t("devices.transfer.log")}</h3>
      {entries?.length === 0 && <p class="muted">{t("devices.transfer.noLog")}</p>}
      {entries && entries.length > 0 && (
        <ul class="alloc-log">
          {entries.map((e, i) => (
            <li key={i}>
              <span class="muted">{formatTime(e.time)}</span> {e.fromAccount || "—"} →{" "}
              <strong>{e.toAccount}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Auto renewal state (spec §4); it is turned on from the renew dialog and off here. */
function AutoRenewal({ t, detail, readOnly, onSaved }: TabProps) {
  const { error, run } = useAction();
  const auto = detail.basic.autoRenew;
  return (
    <section class="sub-section" id="auto-renewal">
      <h3>{t("devices.renew.autoTitle")}</h3>
      <div class="inline-form">
        {auto
          ? (
            <span class="pill ok" data-auto="on">
              {t("devices.renew.autoState", {
                term: t(`devices.renew.terms.${auto.term}`),
                pay: t(`devices.renew.pay.${auto.payWith}`),
              })}
            </span>
          )
          : <span class="pill muted" data-auto="off">{t("devices.renew.autoOff")}</span>}
        {auto && !readOnly && (
          <button
            type="button"
            class="btn"
            id="auto-renew-off"
            onClick={() =>
              run(async () => {
                await api(`${EQ}/setAutoRenew`, { imeis: [detail.basic.imei], autoRenew: null });
                toast(t("devices.detail.saved"));
                onSaved();
              })}
          >
            {t("devices.renew.turnOff")}
          </button>
        )}
      </div>
      {error && <div class="form-error" role="alert">{error}</div>}
    </section>
  );
}

function AppBinding({ t, detail, readOnly, onSaved }: TabProps) {
  const [account, setAccount] = useState("");
  const { error, run } = useAction();
  const bound = detail.basic.bindUserAccount;
  const bindable = detail.basic.appBindable;
  const act = (path: string, body: unknown) =>
    run(async () => {
      await api(path, body);
      toast(t("devices.detail.saved"));
      onSaved();
    });
  return (
    <section class="sub-section">
      <h3>{t("devices.detail.bindApp")}</h3>
      <div class="inline-form" id="app-bindable">
        <span class={`pill ${bindable ? "info" : "warn"}`} data-bindable={String(bindable)}>
          {t(bindable ? "devices.appBindable.allowed" : "devices.appBindable.notAllowed")}
        </span>
        {!readOnly && (
          <button
            type="button"
            class="btn"
            id="app-bindable-toggle"
            onClick={() =>
              act(`${EQ}/setAppBindable`, { imeis: [detail.basic.imei], bindable: !bindable })}
          >
            {t(bindable ? "devices.appBindable.forbid" : "devices.appBindable.allow")}
          </button>
        )}
      </div>
      <div class="inline-form">
        {bound
          ? <span class="pill ok">{t("devices.detail.bound", { account: bound })}</span>
          : <span class="pill muted">{t("devices.detail.notBound")}</span>}
        {!readOnly && bound && (
          <button
            type="button"
            class="btn"
            onClick={() => act(`${EQ}/unbindAppAccount`, { imei: detail.basic.imei })}
          >
            {t("devices.detail.unbindApp")}
          </button>
        )}
        {!readOnly && !bound && bindable && (
          <>
            <input
              class="input"
              id="bind-account"
              placeholder={t("devices.detail.appAccount")}
              aria-label={t("devices.detail.appAccount")}
              maxLength={50}
              value={account}
              onInput={(e) => setAccount((e.target as HTMLInputElement).value)}
            />
            <button
              type="button"
              class="btn"
              disabled={account.trim().length < 3}
              onClick={() =>
                act(`${EQ}/bindAppAccount`, {
                  imei: detail.basic.imei,
                  appAccount: account.trim(),
                })}
            >
              {t("devices.detail.bindApp")}
            </button>
          </>
        )}
      </div>
      {error && <div class="form-error" role="alert">{error}</div>}
    </section>
  );
}

function Ringtone({ t, detail, readOnly, onSaved }: TabProps) {
  const { error, setError, run } = useAction();
  const b = detail.basic;
  if (!b.supportsRingtone) {
    return (
      <section class="sub-section">
        <h3>{t("devices.detail.ringtone")}</h3>
        <p class="muted">{t("devices.detail.noRingtone")}</p>
      </section>
    );
  }
  const send = async (file: File) => {
    setError("");
    // Checked here for a quick answer; the server checks the content itself.
    if (file.size >= 512 * 1024) return setError(t("errors.fileTooLarge", { limit: "512 KB" }));
    const form = new FormData();
    form.set("imei", b.imei);
    form.set("file", file);
    await run(async () => {
      await upload(`${EQ}/uploadRingtone`, form);
      toast(t("devices.detail.saved"));
      onSaved();
    });
  };
  return (
    <section class="sub-section">
      <h3>{t("devices.detail.ringtone")}</h3>
      <div class="inline-form">
        <span class="mono">{b.ringtone ?? "-"}</span>
        {!readOnly && (
          <label class="btn file-btn">
            {t("devices.detail.ringtoneUpload")}
            <input
              type="file"
              accept=".mp3,.wav,audio/mpeg,audio/wav"
              onChange={(e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) send(f);
              }}
            />
          </label>
        )}
        <span class="field-hint">{t("devices.detail.ringtoneHint")}</span>
      </div>
      {error && <div class="form-error" role="alert">{error}</div>}
    </section>
  );
}

const CUSTOMER_DRIVER: Spec[] = [
  { name: "driverName", max: 20 },
  { name: "driverPhone", max: 20 },
  { name: "driverId", max: 50 },
  { name: "driverNo", max: 50 },
  { name: "idCard", max: 30 },
  { name: "vehicleNumber", max: 50 },
  { name: "vehicleId", max: 50 },
  { name: "carFrame", max: 50 },
  { name: "engineNumber", max: 50 },
  { name: "vehicleBrand", max: 50 },
  { name: "vehicleModels", max: 50 },
  { name: "vehicleColor", max: 20 },
  { name: "oilWear", kind: "number" },
];
const CUSTOMER_INSTALL: Spec[] = [
  { name: "installTime", kind: "date" },
  { name: "installCompany", max: 100 },
  { name: "installPersonnel", max: 50 },
  { name: "installPosition", max: 100 },
  { name: "installAddress", max: 200, wide: true },
];

/** Customer tab: driver, vehicle and install data; a doubtful VIN asks before saving. */
export function CustomerTab({ t, detail, readOnly, onSaved }: TabProps) {
  const form = useTabForm(toValues(detail.customer), t);
  const [vinAsk, setVinAsk] = useState(false);
  const specs = [...CUSTOMER_DRIVER, ...CUSTOMER_INSTALL];
  const save = async (confirmVin: boolean) => {
    setVinAsk(false);
    const refused = await form.run(specs, async () => {
      await api(`${EQ}/updateCustomer`, {
        imei: detail.basic.imei,
        customer: typedAll(specs, form.values),
        ...(confirmVin ? { confirmVin } : {}),
      });
      toast(t("devices.detail.saved"));
      onSaved();
    });
    if (refused?.code === 42020) {
      form.setErrors({});
      setVinAsk(true);
    }
  };
  const label = (n: string) => t(`devices.customer.${n}`);
  return (
    <div class="tab-body" data-tab="customer">
      <h3 class="tab-h">{t("devices.customer.driver")}</h3>
      <FieldGrid
        form={form}
        specs={CUSTOMER_DRIVER}
        label={label}
        readOnly={readOnly}
        idPrefix="customer"
      />
      <h3 class="tab-h">{t("devices.customer.install")}</h3>
      <FieldGrid
        form={form}
        specs={CUSTOMER_INSTALL}
        label={label}
        readOnly={readOnly}
        idPrefix="customer"
      />
      {vinAsk && (
        <div class="confirm-box" role="alertdialog" id="vin-confirm">
          <p>{t("devices.detail.vinConfirm")}</p>
          <button type="button" class="btn" onClick={() => setVinAsk(false)}>
            {t("devices.detail.cancel")}
          </button>
          <button
            type="button"
            id="vin-save-anyway"
            class="btn btn-primary"
            onClick={() => save(true)}
          >
            {t("devices.detail.saveAnyway")}
          </button>
        </div>
      )}
      <TabFooter t={t} form={form} readOnly={readOnly} onSave={() => save(false)} />
      <InstallImages t={t} detail={detail} readOnly={readOnly} onSaved={onSaved} />
    </div>
  );
}

function InstallImages({ t, detail, readOnly, onSaved }: TabProps) {
  const imgs = detail.basic.installImages;
  const imei = detail.basic.imei;
  const remove = async (name: string) => {
    try {
      await api(`${EQ}/deleteInstallImage`, { imei, name });
      onSaved();
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  return (
    <section class="sub-section">
      <h3>{t("devices.detail.images")}</h3>
      {imgs.length === 0 && <p class="muted">{t("devices.detail.noImages")}</p>}
      <div class="thumbs">
        {imgs.map((n) => (
          <figure key={n}>
            <img
              src={`${EQ}/installImage?imei=${imei}&name=${encodeURIComponent(n)}`}
              alt={n}
              loading="lazy"
            />
            <figcaption>
              {n}
              {!readOnly && (
                <button
                  type="button"
                  class="icon-btn"
                  aria-label={t("devices.detail.deleteImage")}
                  onClick={() => remove(n)}
                >
                  ×
                </button>
              )}
            </figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

const ALERT_SPECS: [string, Spec[]][] = [
  ["temperature", [{ name: "minTemperature", kind: "number" }, {
    name: "maxTemperature",
    kind: "number",
  }]],
  ["speed", [{ name: "overSpeed", kind: "number" }, { name: "overSecond", kind: "number" }]],
  ["mileage", [
    { name: "mileageThreshold", kind: "number" },
    { name: "mileage", kind: "number" },
    { name: "continuousMileageThreshold", kind: "number" },
  ]],
  ["acc", [{ name: "aCCOnDurtionThreshold", kind: "number" }, {
    name: "initialValue",
    kind: "number",
  }]],
  ["inputs", [
    { name: "input1.active", max: 20 },
    { name: "input1.inactive", max: 20 },
    { name: "input2.active", max: 20 },
    { name: "input2.inactive", max: 20 },
  ]],
];

/** Alerts tab: the alarm settings fields of spec §3 with the §5 threshold rules. */
export function AlertsTab({ t, detail, readOnly, onSaved }: TabProps) {
  const a = detail.alerts;
  const form = useTabForm({
    ...toValues(a),
    "input1.active": a.input1.active,
    "input1.inactive": a.input1.inactive,
    "input2.active": a.input2.active,
    "input2.inactive": a.input2.inactive,
  }, t);
  const specs = ALERT_SPECS.flatMap(([, s]) => s);
  const label = (n: string) => {
    const [input, side] = n.split(".");
    if (side) return `${t(`devices.alerts.${input}`)} · ${t(`devices.alerts.${side}`)}`;
    return t(`devices.alerts.${n === "mileage" ? "currentMileage" : n}`);
  };
  const save = () =>
    form.run(specs, async () => {
      const v = typedAll(specs, form.values);
      const alerts = Object.fromEntries(Object.entries(v).filter(([k]) => !k.includes(".")));
      for (const i of ["input1", "input2"]) {
        alerts[i] = { active: v[`${i}.active`], inactive: v[`${i}.inactive`] };
      }
      await api(`${EQ}/updateAlerts`, { imei: detail.basic.imei, alerts });
      toast(t("devices.detail.saved"));
      onSaved();
    });
  return (
    <div class="tab-body" data-tab="alerts">
      {ALERT_SPECS.map(([group, s]) => (
        <div key={group}>
          <h3 class="tab-h">{t(`devices.alerts.${group}`)}</h3>
          <FieldGrid form={form} specs={s} label={label} readOnly={readOnly} idPrefix="alerts" />
        </div>
      ))}
      <TabFooter t={t} form={form} readOnly={readOnly} onSave={save} />
    </div>
  );
}

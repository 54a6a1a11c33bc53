/**
 * The add/edit dialog of an automatic report: report type and frequency are chosen once
 * (disabled when editing, spec §4), devices by choice (≤ 200) or by device model, the
 * recipients one per line or separated by commas.
 */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { Field } from "../ui/Field.tsx";
import { DevicePicker } from "../commands/DevicePicker.tsx";
import type { AccountRef } from "../accounts/types.ts";
import { REPORT_NAMES, type ReportName } from "../../modules/reports/model.ts";
import {
  AUTO_REPORT_FREQUENCIES,
  AUTO_REPORT_MAX_DEVICES,
  AUTO_REPORT_MAX_EMAILS,
  AUTO_REPORT_TIME_FIELDS,
  type AutoReportFrequency,
  type AutoReportRow,
  type AutoReportTimeField,
} from "../../modules/autoreports/model.ts";

interface Draft {
  name: string;
  reportType: ReportName;
  frequency: AutoReportFrequency;
  executionTime: string;
  by: "devices" | "model";
  /** The account a device model selection covers. */
  userId: string;
  imeis: string[];
  mcType: string;
  includeSubAccounts: boolean;
  emails: string;
  batteryThreshold: string;
  timeField: "" | AutoReportTimeField;
}

/** An account a device model selection may cover: the caller's own, or one below it. */
interface AccountOption {
  id: string;
  account: string;
  nickName: string;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

function draftOf(r: AutoReportRow | null, free: ReportName, rootId: string): Draft {
  return {
    userId: r?.userId ?? rootId,
    name: r?.name ?? "",
    reportType: r?.reportType ?? free,
    frequency: r?.frequency ?? "day",
    executionTime: r?.executionTime ?? "08:00",
    by: r?.mcType ? "model" : "devices",
    imeis: r?.imeis ?? [],
    mcType: r?.mcType ?? "",
    includeSubAccounts: r?.includeSubAccounts ?? true,
    emails: r?.emails.join("\n") ?? "",
    batteryThreshold: r?.batteryThreshold == null ? "" : String(r.batteryThreshold),
    timeField: r?.timeField ?? "",
  };
}

/** The request body of a draft (recipients split and checked here first). */
function bodyOf(d: Draft, editing: AutoReportRow | null) {
  return {
    ...(editing ? { id: editing.id, params: editing.params } : {}),
    userId: d.userId,
    name: d.name.trim(),
    reportType: d.reportType,
    frequency: d.frequency,
    executionTime: d.executionTime,
    imeis: d.by === "devices" ? d.imeis : [],
    ...(d.by === "model" && d.mcType ? { mcType: d.mcType } : {}),
    includeSubAccounts: d.includeSubAccounts,
    emails: d.emails.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean),
    ...(d.batteryThreshold !== "" ? { batteryThreshold: Number(d.batteryThreshold) } : {}),
    ...(d.timeField ? { timeField: d.timeField } : {}),
  };
}

export function AutoReportForm(
  { t, editing, taken, root, timeZone, onClose, onSaved }: {
    t: TFunction;
    editing: AutoReportRow | null;
    /** Report types that already have an automatic report (one per type). */
    taken: ReportName[];
    root: AccountRef;
    timeZone: string;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const free = REPORT_NAMES.find((n) => !taken.includes(n)) ?? REPORT_NAMES[0];
  const [d, setD] = useState<Draft>(() => draftOf(editing, free, root.id));
  const [models, setModels] = useState<{ mcType: string; name: string }[]>([]);
  const [accounts, setAccounts] = useState<AccountOption[]>([]);
  const [picking, setPicking] = useState(false);
  const [draftImeis, setDraftImeis] = useState<string[]>([]);
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  useEffect(() => {
    api<{ mcType: string; name: string }[]>("/v3/new/newDevice/getAllMcType")
      .then(setModels, () => {});
    api<{ list: AccountOption[] }>("/v3/new/account/children", { pageNum: 1, pageSize: 100 })
      .then((r) => setAccounts(r.list), () => {});
  }, []);
  const save = async () => {
    const body = bodyOf(d, editing);
    const bad = body.emails.find((e) => !EMAIL.test(e));
    if (bad) return setError(t("autoReports.form.badEmail", { email: bad }));
    setSaving(true);
    try {
      await api(`/v3/new/autoReport/${editing ? "update" : "add"}`, body);
      onSaved();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title={editing ? t("autoReports.edit") : t("autoReports.add")}
      closeLabel={t("ui.close")}
      width={640}
      onClose={onClose}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>
            {t("autoReports.form.cancel")}
          </button>
          <button
            type="button"
            class="btn btn-primary"
            id="ar-save"
            disabled={saving}
            onClick={save}
          >
            {t("autoReports.form.save")}
          </button>
        </>
      }
    >
      <div class="ar-form">
        <Field label={t("autoReports.form.name")} required>
          <input
            class="input"
            id="ar-name"
            maxLength={50}
            value={d.name}
            onInput={(e) => set({ name: e.currentTarget.value })}
          />
        </Field>
        <div class="ar-row">
          <Field label={t("autoReports.form.reportType")} required>
            <select
              class="input"
              id="ar-type"
              disabled={!!editing}
              value={d.reportType}
              onChange={(e) => set({ reportType: e.currentTarget.value as ReportName })}
            >
              {REPORT_NAMES.map((n) => (
                <option key={n} value={n} disabled={!editing && taken.includes(n)}>
                  {t(`reports.names.${n}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t("autoReports.form.frequency")} required>
            <select
              class="input"
              id="ar-frequency"
              disabled={!!editing}
              value={d.frequency}
              onChange={(e) => set({ frequency: e.currentTarget.value as AutoReportFrequency })}
            >
              {AUTO_REPORT_FREQUENCIES.map((f) => (
                <option key={f} value={f}>{t(`autoReports.frequencies.${f}`)}</option>
              ))}
            </select>
          </Field>
          <Field label={t("autoReports.form.executionTime")} required>
            <input
              class="input"
              type="time"
              id="ar-time"
              value={d.executionTime}
              onInput={(e) => set({ executionTime: e.currentTarget.value })}
            />
          </Field>
        </div>
        <p class="field-hint ar-hint">
          {editing ? t("autoReports.form.fixedHint") + " " : ""}
          {t("autoReports.form.executionHint", { zone: timeZone })}
        </p>
        <DevicesField
          t={t}
          d={d}
          set={set}
          models={models}
          accounts={[root, ...accounts.filter((a) => a.id !== root.id)]}
          openPicker={() => {
            setDraftImeis(d.imeis);
            setPicking(true);
          }}
        />
        <Field
          label={t("autoReports.form.emails")}
          required
          hint={t("autoReports.form.emailsHint", { max: AUTO_REPORT_MAX_EMAILS })}
        >
          <textarea
            class="input"
            id="ar-emails"
            rows={3}
            value={d.emails}
            onInput={(e) => set({ emails: e.currentTarget.value })}
          />
        </Field>
        <div class="ar-row">
          <Field label={t("autoReports.form.batteryThreshold")}>
            <input
              class="input"
              type="number"
              min={0}
              max={100}
              id="ar-battery"
              value={d.batteryThreshold}
              onInput={(e) => set({ batteryThreshold: e.currentTarget.value })}
            />
          </Field>
          <Field label={t("autoReports.form.timeField")}>
            <select
              class="input"
              id="ar-time-field"
              value={d.timeField}
              onChange={(e) =>
                set({ timeField: e.currentTarget.value as "" | AutoReportTimeField })}
            >
              <option value="">—</option>
              {AUTO_REPORT_TIME_FIELDS.map((f) => (
                <option key={f} value={f}>{t(`autoReports.timeFields.${f}`)}</option>
              ))}
            </select>
          </Field>
        </div>
        {error && <p class="field-error ar-error" role="alert">{error}</p>}
      </div>
      {picking && (
        <Modal
          title={t("autoReports.form.choose")}
          closeLabel={t("ui.close")}
          width={880}
          onClose={() => setPicking(false)}
          footer={
            <>
              <button type="button" class="btn" onClick={() => setPicking(false)}>
                {t("autoReports.form.cancel")}
              </button>
              <button
                type="button"
                class="btn btn-primary"
                id="ar-devices-ok"
                onClick={() => {
                  set({ imeis: draftImeis });
                  setPicking(false);
                }}
              >
                {t("autoReports.form.useDevices", { count: draftImeis.length })}
              </button>
            </>
          }
        >
          <DevicePicker
            t={t}
            root={root}
            selected={draftImeis}
            onChange={setDraftImeis}
            max={AUTO_REPORT_MAX_DEVICES}
          />
        </Modal>
      )}
    </Modal>
  );
}

/** Chosen devices (a count and the picker) or a device model with its sub-accounts switch. */
function DevicesField(
  { t, d, set, models, accounts, openPicker }: {
    t: TFunction;
    d: Draft;
    set: (patch: Partial<Draft>) => void;
    models: { mcType: string; name: string }[];
    accounts: AccountOption[];
    openPicker: () => void;
  },
) {
  return (
    <fieldset class="ar-devices">
      <legend class="field-label">
        <i class="req">*</i>
        {t("autoReports.form.selection")}
      </legend>
      <div class="ar-choice" role="radiogroup">
        {(["devices", "model"] as const).map((by) => (
          <label key={by} class="ar-radio">
            <input
              type="radio"
              name="ar-by"
              value={by}
              checked={d.by === by}
              onChange={() => set({ by })}
            />
            {t(by === "devices" ? "autoReports.form.byDevices" : "autoReports.form.byModel")}
          </label>
        ))}
      </div>
      {d.by === "devices"
        ? (
          <div class="ar-picked">
            <span class="ar-count" data-testid="ar-device-count">
              {t("autoReports.form.chosen", { count: d.imeis.length })}
            </span>
            <button type="button" class="btn" id="ar-pick" onClick={openPicker}>
              {d.imeis.length ? t("autoReports.form.change") : t("autoReports.form.choose")}
            </button>
          </div>
        )
        : (
          <div class="ar-picked">
            <select
              class="input"
              id="ar-account"
              aria-label={t("autoReports.form.account")}
              value={d.userId}
              onChange={(e) => set({ userId: e.currentTarget.value })}
            >
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.nickName && a.nickName !== a.account
                    ? `${a.account} (${a.nickName})`
                    : a.account}
                </option>
              ))}
            </select>
            <select
              class="input"
              id="ar-model"
              aria-label={t("autoReports.form.mcType")}
              value={d.mcType}
              onChange={(e) => set({ mcType: e.currentTarget.value })}
            >
              <option value="">—</option>
              {models.map((m) => <option key={m.mcType} value={m.mcType}>{m.mcType}</option>)}
            </select>
          </div>
        )}
      {d.by === "model" && (
        <label class="ar-check">
          <input
            type="checkbox"
            id="ar-sub"
            checked={d.includeSubAccounts}
            onChange={(e) => set({ includeSubAccounts: e.currentTarget.checked })}
          />
          {t("autoReports.form.includeSubAccounts")}
        </label>
      )}
    </fieldset>
  );
}

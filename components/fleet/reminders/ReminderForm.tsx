/** The add/edit dialog of a fleet reminder and the "mark done" dialog. */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../../lib/client/api.ts";
import { Modal } from "../../ui/Modal.tsx";
import { Field } from "../../ui/Field.tsx";
import {
  INTERVAL_KINDS,
  type Reminder,
  REMINDER_LIMITS,
  REMINDER_TYPES,
  TIME_UNITS,
} from "../../../modules/fleet/reminders_model.ts";

type Draft = Pick<
  Reminder,
  | "name"
  | "type"
  | "imei"
  | "intervalKind"
  | "every"
  | "unit"
  | "advance"
  | "startDate"
  | "email"
  | "lastDone"
>;

const today = () => new Date().toISOString().slice(0, 10);
const BLANK: Draft = {
  name: "",
  type: "maintenance",
  imei: "",
  intervalKind: "time",
  every: 6,
  unit: "month",
  advance: 14,
  startDate: today(),
  email: "",
  lastDone: "",
};

interface DeviceRow {
  imei: string;
  deviceName: string;
}

export function ReminderForm(
  { t, editing, onClose, onSaved }: {
    t: TFunction;
    editing: Reminder | null;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [d, setD] = useState<Draft>(editing ? { ...editing } : BLANK);
  const [devices, setDevices] = useState<DeviceRow[]>([]);
  const [error, setError] = useState("");
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  useEffect(() => {
    api<{ list: DeviceRow[] }>("/v3/new/newEquipment/queryEquipmentList", {
      pageNum: 1,
      pageSize: 100,
    }).then((r) => setDevices(r.list), () => {});
  }, []);
  const save = async () => {
    try {
      const body = { ...d, every: Number(d.every), advance: Number(d.advance) };
      await api(
        `/v3/new/fleet/reminder/${editing ? "update" : "add"}`,
        editing ? { id: editing.id, ...body } : body,
      );
      onSaved();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  const unitLabel = d.intervalKind === "time"
    ? t("fleetReminders.unit.days")
    : t(`fleetReminders.unit.${d.intervalKind === "mileage" ? "km" : "h"}`);
  return (
    <Modal
      title={t(editing ? "fleetReminders.editTitle" : "fleetReminders.addTitle")}
      onClose={onClose}
      closeLabel={t("fleetReminders.cancel")}
      width={560}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("fleetReminders.cancel")}</button>
          <button type="button" class="btn btn-primary" id="fr-save" onClick={save}>
            {t("fleetReminders.save")}
          </button>
        </>
      }
    >
      <div class="fr-form" id="reminder-form">
        {error && <div class="field-error fr-error" role="alert">{error}</div>}
        <Field label={t("fleetReminders.fields.name")} required>
          <input
            name="name"
            value={d.name}
            maxLength={REMINDER_LIMITS.nameMax}
            onInput={(e) => set({ name: (e.target as HTMLInputElement).value })}
          />
        </Field>
        <div class="fr-row">
          <Field label={t("fleetReminders.fields.type")}>
            <select
              name="type"
              value={d.type}
              onChange={(e) =>
                set({ type: (e.target as HTMLSelectElement).value as Draft["type"] })}
            >
              {REMINDER_TYPES.map((x) => (
                <option key={x} value={x}>{t(`fleetReminders.type.${x}`)}</option>
              ))}
            </select>
          </Field>
          <Field label={t("fleetReminders.fields.vehicle")}>
            <select
              name="imei"
              value={d.imei}
              onChange={(e) => set({ imei: (e.target as HTMLSelectElement).value })}
            >
              <option value="">{t("fleetReminders.fields.noVehicle")}</option>
              {devices.map((x) => (
                <option key={x.imei} value={x.imei}>{x.deviceName} ({x.imei})</option>
              ))}
            </select>
          </Field>
        </div>
        <IntervalFields t={t} d={d} set={set} unitLabel={unitLabel} />
        <div class="fr-row">
          <Field label={`${t("fleetReminders.fields.advance")} (${unitLabel})`}>
            <input
              name="advance"
              type="number"
              min={0}
              value={d.advance}
              onInput={(e) => set({ advance: Number((e.target as HTMLInputElement).value) })}
            />
          </Field>
          <Field label={t("fleetReminders.fields.email")}>
            <input
              name="email"
              type="email"
              value={d.email}
              maxLength={100}
              onInput={(e) => set({ email: (e.target as HTMLInputElement).value })}
            />
          </Field>
        </div>
        <div class="fr-row">
          <Field label={t("fleetReminders.fields.startDate")} required>
            <input
              name="startDate"
              type="date"
              value={d.startDate}
              onInput={(e) => set({ startDate: (e.target as HTMLInputElement).value })}
            />
          </Field>
          <Field label={t("fleetReminders.fields.lastDone")}>
            <input
              name="lastDone"
              type="date"
              value={d.lastDone}
              onInput={(e) => set({ lastDone: (e.target as HTMLInputElement).value })}
            />
          </Field>
        </div>
      </div>
    </Modal>
  );
}

/** How often the reminder comes: by time (every N weeks, months, years), mileage or hours. */
function IntervalFields({ t, d, set, unitLabel }: {
  t: TFunction;
  d: Draft;
  set: (patch: Partial<Draft>) => void;
  /** The unit of a mileage or engine-hours interval (km, h), or days. */
  unitLabel: string;
}) {
  return (
    <div class="fr-row three">
      <Field label={t("fleetReminders.fields.intervalKind")}>
        <select
          name="intervalKind"
          value={d.intervalKind}
          onChange={(e) =>
            set({
              intervalKind: (e.target as HTMLSelectElement).value as Draft["intervalKind"],
            })}
        >
          {INTERVAL_KINDS.map((x) => (
            <option key={x} value={x}>{t(`fleetReminders.kind.${x}`)}</option>
          ))}
        </select>
      </Field>
      <Field label={t("fleetReminders.fields.every")}>
        <input
          name="every"
          type="number"
          min={1}
          value={d.every}
          onInput={(e) => set({ every: Number((e.target as HTMLInputElement).value) })}
        />
      </Field>
      {d.intervalKind === "time"
        ? (
          <Field label={t("fleetReminders.fields.unit")}>
            <select
              name="unit"
              value={d.unit}
              onChange={(e) =>
                set({ unit: (e.target as HTMLSelectElement).value as Draft["unit"] })}
            >
              {TIME_UNITS.map((x) => (
                <option key={x} value={x}>{t(`fleetReminders.unit.${x}`)}</option>
              ))}
            </select>
          </Field>
        )
        : (
          <Field label={t("fleetReminders.fields.unit")}>
            <input value={unitLabel} disabled />
          </Field>
        )}
    </div>
  );
}

export function DoneDialog(
  { t, reminder, onClose, onSaved }: {
    t: TFunction;
    reminder: Reminder;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [date, setDate] = useState(today());
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const save = async () => {
    try {
      await api("/v3/new/fleet/reminder/done", { id: reminder.id, date, note });
      onSaved();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <Modal
      title={`${t("fleetReminders.doneTitle")} — ${reminder.name}`}
      onClose={onClose}
      closeLabel={t("fleetReminders.cancel")}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("fleetReminders.cancel")}</button>
          <button type="button" class="btn btn-primary" id="fr-done-save" onClick={save}>
            {t("fleetReminders.done")}
          </button>
        </>
      }
    >
      {error && <div class="field-error fr-error" role="alert">{error}</div>}
      <Field label={t("fleetReminders.doneDate")}>
        <input
          type="date"
          value={date}
          onInput={(e) => setDate((e.target as HTMLInputElement).value)}
        />
      </Field>
      <Field label={t("fleetReminders.note")}>
        <input
          value={note}
          maxLength={REMINDER_LIMITS.noteMax}
          onInput={(e) => setNote((e.target as HTMLInputElement).value)}
        />
      </Field>
    </Modal>
  );
}

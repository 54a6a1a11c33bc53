import type { TFunction } from "i18next";
import { useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Form, FormDialog, Input, Select, useForm, type Values } from "../accounts/form.tsx";
import { type Check, length, optional, type Reason, required } from "../accounts/validate.ts";
import { DevicePicker } from "../commands/DevicePicker.tsx";
import { Field } from "../ui/Field.tsx";
import { CheckBox } from "./CheckBox.tsx";
import type { AccountRef } from "../accounts/types.ts";
import type { BroadcastRule } from "../../modules/alerts/broadcast.ts";
import { DEVICE_ALARM_TYPES, ENGINE_TYPES } from "../../modules/alerts/types.ts";

/** Spec: the alert device filter and a rule's device list hold at most 200 devices. */
const MAX_DEVICES = 200;

/** A whole or decimal number within [min, max] (the server's zod limits, same wording). */
const numberIn = (min: number, max: number, integer = true): Check => (v): Reason | null => {
  const n = Number(v.trim());
  if (v.trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    return { key: "validation.wrongType", params: { expected: integer ? "integer" : "number" } };
  }
  if (n < min) return { key: "validation.tooSmall", params: { min } };
  if (n > max) return { key: "validation.tooBig", params: { max } };
  return null;
};
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeForm: Check = (v) => TIME.test(v) ? null : { key: "validation.timeForm", plain: true };

/** Create / edit dialog of one auto broadcast rule (spec §3: name, alarm type, count per time unit, hours, speeds, devices). */
export function BroadcastForm({ t, root, rule, onClose, onSaved }: {
  t: TFunction;
  root: AccountRef;
  rule: BroadcastRule | null;
  onClose: () => void;
  onSaved: (r: BroadcastRule) => void;
}) {
  const state = useBroadcastForm(t, rule, onSaved);
  const { form, label, someDevices } = state;
  const v = form.values;
  return (
    <FormDialog
      t={t}
      title={t(rule ? "alerts.broadcast.editTitle" : "alerts.broadcast.addTitle")}
      onClose={onClose}
      onSubmit={state.save}
      busy={form.busy}
      formError={form.formError}
      width={someDevices ? 900 : 640}
    >
      <div class="form-grid two broadcast-form">
        <Input form={form} name="name" label={label("name")} required maxLength={20} />
        <AlarmTypeField t={t} form={form} label={label("alarmType")} />
        <Input
          form={form}
          name="count"
          label={label("count")}
          required
          hint={t("alerts.broadcast.hints.count")}
        />
        <Select
          form={form}
          name="unitMinutes"
          label={label("unitMinutes")}
          required
          options={unitOptions(t, v.unitMinutes)}
        />
        <TimeInput form={form} name="startTime" label={label("startTime")} />
        <TimeInput form={form} name="endTime" label={label("endTime")} />
        <Input
          form={form}
          name="minSpeed"
          label={label("minSpeed")}
          hint={t("alerts.broadcast.hints.speed")}
        />
        <Input
          form={form}
          name="maxSpeed"
          label={label("maxSpeed")}
          hint={t("alerts.broadcast.hints.speed")}
        />
        <Input
          form={form}
          name="content"
          kind="textarea"
          label={label("content")}
          required
          wide
          maxLength={100}
          hint={t("alerts.broadcast.hints.content")}
        />
        {v.content.trim() !== "" && v.content.trim() !== (rule?.content ?? "") && (
          <Input
            form={form}
            name="password"
            kind="password"
            label={label("password")}
            autoComplete="current-password"
            hint={t("alerts.broadcast.hints.password")}
          />
        )}
        <CheckBox
          class="span2"
          name="enabled"
          label={label("enabled")}
          checked={state.enabled}
          onChange={state.setEnabled}
        />
        <BroadcastDevicesField t={t} root={root} state={state} />
      </div>
    </FormDialog>
  );
}

type BroadcastFormState = ReturnType<typeof useBroadcastForm>;

/** The rule's values and checks, its device scope, and saving it (refusals shown on their field). */
function useBroadcastForm(
  t: TFunction,
  rule: BroadcastRule | null,
  onSaved: (r: BroadcastRule) => void,
) {
  const form = useForm({
    name: rule?.name ?? "",
    alarmType: rule?.alarmType ?? "overspeed",
    count: String(rule?.count ?? 3),
    unitMinutes: String(rule?.unitMinutes ?? 10),
    startTime: rule?.startTime ?? "00:00",
    endTime: rule?.endTime ?? "23:59",
    minSpeed: rule?.minSpeed == null ? "" : String(rule.minSpeed),
    maxSpeed: rule?.maxSpeed == null ? "" : String(rule.maxSpeed),
    content: rule?.content ?? "",
    /** The login password, for a text that is a protected instruction (never stored). */
    password: "",
  }, t);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [imeis, setImeis] = useState<string[]>(rule?.imeis ?? []);
  const [someDevices, setSomeDevices] = useState((rule?.imeis.length ?? 0) > 0);
  const [devicesError, setDevicesError] = useState("");
  const v = form.values;
  const label = (k: string) => t(`alerts.broadcast.fields.${k}`);
  const after = (other: () => string, key: string): Check => (x) =>
    TIME.test(x) && TIME.test(other()) && minutesOf(x) <= minutesOf(other()) ? { key } : null;
  const atLeast = (other: () => string): Check => (x) =>
    x.trim() !== "" && other().trim() !== "" && Number(x) < Number(other())
      ? { key: "validation.maxAboveMin" }
      : null;

  const save = () => {
    setDevicesError("");
    if (someDevices && !imeis.length) {
      setDevicesError(t("alerts.broadcast.pickDevices"));
      return Promise.resolve();
    }
    return form.submit(
      {
        name: [required, length(1, 20)],
        count: [numberIn(1, 100)],
        unitMinutes: [numberIn(1, 1440)],
        startTime: [timeForm],
        endTime: [timeForm, after(() => v.startTime, "validation.nightRange")],
        minSpeed: [optional(numberIn(0, 300, false))],
        maxSpeed: [optional(numberIn(0, 300, false)), atLeast(() => v.minSpeed)],
        content: [required, length(1, 100)],
      },
      Object.fromEntries(Object.keys(v).map((k) => [k, label(k)])),
      async () => {
        const speed = (x: string) => (x.trim() === "" ? null : Number(x));
        try {
          onSaved(
            await api<BroadcastRule>("/v3/new/alarm/broadcast/save", {
              rule: {
                ...(rule ? { id: rule.id } : {}),
                name: v.name.trim(),
                alarmType: v.alarmType,
                count: Number(v.count),
                unitMinutes: Number(v.unitMinutes),
                startTime: v.startTime,
                endTime: v.endTime,
                minSpeed: speed(v.minSpeed),
                maxSpeed: speed(v.maxSpeed),
                content: v.content.trim(),
                imeis: someDevices ? imeis : [],
                enabled,
              },
              ...(v.password ? { password: v.password } : {}),
            }),
          );
        } catch (e) {
          // The body nests the rule: "rule.name" refusals belong under the "name" field.
          if (!(e instanceof ApiError)) throw e;
          const data = e.data as { field?: string; imei?: string } | null;
          if (data?.imei) setDevicesError(e.message);
          throw new ApiError(e.message, e.code, {
            ...data,
            field: data?.field?.replace(/^rule\./, ""),
          });
        }
      },
    );
  };
  return {
    form,
    label,
    enabled,
    setEnabled,
    imeis,
    setImeis,
    someDevices,
    setSomeDevices,
    devicesError,
    save,
  };
}

/** Alarm types offered, grouped as on the settings page. */
const ALARM_TYPE_GROUPS = [
  ["engine", ENGINE_TYPES],
  ["device", DEVICE_ALARM_TYPES],
] as const;

function AlarmTypeField<V extends Values & { alarmType: string }>(
  { t, form, label }: { t: TFunction; form: Form<V>; label: string },
) {
  const v = form.values;
  return (
    <div>
      <Field label={label} required>
        <select
          name="alarmType"
          value={v.alarmType}
          onChange={(e) => form.set("alarmType", (e.target as HTMLSelectElement).value)}
        >
          {ALARM_TYPE_GROUPS.map(([group, list]) => (
            <optgroup key={group} label={t(`alerts.settings.groups.${group}`)}>
              {list.map((x) => <option key={x} value={x}>{t(`alerts.type.${x}`)}</option>)}
            </optgroup>
          ))}
        </select>
      </Field>
    </div>
  );
}

/** All devices, or some picked from the root account's subtree. */
function BroadcastDevicesField(
  { t, root, state }: { t: TFunction; root: AccountRef; state: BroadcastFormState },
) {
  return (
    <fieldset class="span2 broadcast-devices">
      <legend class="field-label">{state.label("devices")}</legend>
      <div class="checks">
        {[false, true].map((some) => (
          <label key={String(some)} class="check">
            <input
              type="radio"
              name="deviceScope"
              value={some ? "some" : "all"}
              checked={state.someDevices === some}
              onChange={() => state.setSomeDevices(some)}
            />
            {t(some ? "alerts.broadcast.someDevices" : "alerts.broadcast.allDevices")}
          </label>
        ))}
      </div>
      {state.someDevices && (
        <DevicePicker
          t={t}
          root={root}
          selected={state.imeis}
          onChange={state.setImeis}
          max={MAX_DEVICES}
        />
      )}
      {state.devicesError && <span class="field-error" role="alert">{state.devicesError}</span>}
    </fieldset>
  );
}

/** Time units offered: common spans; a stored odd value stays selectable. */
function unitOptions(t: TFunction, current: string) {
  const spans = [1, 5, 10, 15, 30, 60, 120, 360, 720, 1440];
  if (current && !spans.includes(Number(current))) spans.push(Number(current));
  return spans.sort((a, b) => a - b).map((m) => ({ value: String(m), label: unitLabel(t, m) }));
}

/** "10 minutes", "2 hours", "1 day". */
export function unitLabel(t: TFunction, minutes: number): string {
  if (minutes % 1440 === 0) return t("alerts.broadcast.units.day", { count: minutes / 1440 });
  if (minutes % 60 === 0) return t("alerts.broadcast.units.hour", { count: minutes / 60 });
  return t("alerts.broadcast.units.minute", { count: minutes });
}

function TimeInput<V extends Values>({ form, name, label }: {
  form: Form<V>;
  name: keyof V & string;
  label: string;
}) {
  form.fields.add(name);
  return (
    <div>
      <Field label={label} required error={form.errors[name]}>
        <input
          type="time"
          name={name}
          value={form.values[name]}
          aria-invalid={form.errors[name] ? true : undefined}
          onInput={(e) => form.set(name, (e.target as HTMLInputElement).value)}
        />
      </Field>
    </div>
  );
}

import { useState } from "react";
import type { TFunction } from "i18next";
import { api, ApiError } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { Field } from "../ui/Field.tsx";
import type { Zone } from "../../modules/geofences/model.ts";
import type { Group } from "./editor_state.ts";
import { FenceDevicePicker } from "./DevicePicker.tsx";

/** Most devices one fence binds (the API's limit). */
const MAX_BOUND = 1000;

/** A zone as the API returns it. */
export type ZoneRow = Zone;

const FLAGS = ["enterAlert", "exitAlert", "notInAlert", "notOutAlert", "emailAlert"] as const;

/** Create/edit dialog of one zone after it was drawn (or picked from the list). */
export function ZoneForm(
  { t, zone, kind, groups, onClose, onSaved }: {
    t: TFunction;
    zone: Partial<ZoneRow>;
    kind: ZoneRow["kind"];
    groups: Group[];
    onClose: () => void;
    onSaved: (z: ZoneRow) => void;
  },
) {
  const form = useZoneForm(t, zone, kind, groups, onSaved);
  const { v, set, bind, errors, busy, shape } = form;

  return (
    <Modal
      title={t(zone.id ? "geofences.editTitle" : "geofences.newTitle", {
        kind: t(`geofences.kindOne.${kind}`),
      })}
      closeLabel={t("ui.close")}
      onClose={onClose}
      width={kind === "fence" ? 640 : 560}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.cancel")}</button>
          <button type="submit" form="zone-form" class="btn btn-primary" disabled={busy}>
            {t("ui.save")}
          </button>
        </>
      }
    >
      <form id="zone-form" class="form-grid gf-form" onSubmit={form.submit}>
        <Field label={t("geofences.fields.name")} required error={errors.name}>
          <input
            class="input"
            {...bind("name")}
            maxLength={50}
          />
        </Field>
        {shape.kind === "circle"
          ? (
            <Field
              label={t("geofences.fields.radius")}
              required
              error={errors.radius}
              hint={t(`geofences.radiusHint.${kind}`)}
            >
              <input
                class="input"
                {...bind("radius")}
                type="number"
                step={1}
              />
            </Field>
          )
          : (
            <Field label={t("geofences.fields.shape")}>
              <div class="muted">{t("geofences.polygonInfo", { n: shape.points.length - 1 })}</div>
            </Field>
          )}
        <Field label={t("geofences.fields.group")}>
          <select
            class="input"
            name="groupId"
            value={v.groupId}
            onChange={(e) => set("groupId", (e.target as HTMLSelectElement).value)}
          >
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.isDefault ? t("geofences.groups.default") : g.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("geofences.fields.color")}>
          <input
            class="color-input"
            {...bind("color")}
            type="color"
          />
        </Field>
        <Field label={t("geofences.fields.description")}>
          <textarea
            class="input"
            {...bind("description")}
            rows={2}
            maxLength={500}
          />
        </Field>
        {kind === "fence" && (
          <FenceRuleFields
            t={t}
            form={form}
            savedCommand={zone.command ?? ""}
          />
        )}
        {errors.form && <p class="form-error">{errors.form}</p>}
      </form>
    </Modal>
  );
}

type ZoneFormState = ReturnType<typeof useZoneForm>;

/** The dialog's values, errors and saving: one zone sent to the API, refusals shown on their field. */
function useZoneForm(
  t: TFunction,
  zone: Partial<ZoneRow>,
  kind: ZoneRow["kind"],
  groups: Group[],
  onSaved: (z: ZoneRow) => void,
) {
  const [v, setV] = useState({
    name: zone.name ?? "",
    description: zone.description ?? "",
    groupId: zone.groupId ?? groups.find((g) => g.isDefault)?.id ?? "",
    color: zone.color ?? "#3b7aff",
    enterAlert: zone.enterAlert ?? kind === "fence",
    exitAlert: zone.exitAlert ?? kind === "fence",
    notInAlert: zone.notInAlert ?? false,
    notOutAlert: zone.notOutAlert ?? false,
    stayDays: String(zone.stayDays ?? 1),
    command: zone.command ?? "",
    /** The login password, for a command that is a protected instruction (never stored). */
    password: "",
    emailAlert: zone.emailAlert ?? false,
    radius: zone.shape?.kind === "circle" ? String(zone.shape.radius) : "",
  });
  /** Devices the fence applies to, picked from the account's own (none: all of them). */
  const [imeis, setImeis] = useState<string[]>(zone.imeis ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof v, value: string | boolean) => setV({ ...v, [k]: value });
  /** name, value and input handler of a text field. */
  const bind = (
    k: "name" | "radius" | "color" | "description" | "stayDays" | "command",
  ) => ({
    name: k,
    value: v[k],
    onInput: (e: Event) => set(k, (e.target as HTMLInputElement).value),
  });
  const shape = zone.shape!;
  const imeisError = errors.imeis ||
    Object.entries(errors).find(([k]) => k.startsWith("imeis."))?.[1];

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!v.name.trim()) found.name = t("validation.required");
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const saved = await api<ZoneRow>("/v3/new/geofence/save", {
        ...(zone.id ? { id: zone.id } : {}),
        kind,
        name: v.name.trim(),
        description: v.description.trim(),
        groupId: v.groupId || undefined,
        color: v.color,
        shape: shape.kind === "circle" ? { ...shape, radius: Number(v.radius) } : shape,
        ...(kind === "fence"
          ? {
            enterAlert: v.enterAlert,
            exitAlert: v.exitAlert,
            notInAlert: v.notInAlert,
            notOutAlert: v.notOutAlert,
            stayDays: Number(v.stayDays),
            command: v.command.trim(),
            ...(v.password ? { password: v.password } : {}),
            emailAlert: v.emailAlert,
            imeis,
          }
          : {}),
      });
      onSaved(saved);
    } catch (err) {
      const field = err instanceof ApiError
        ? String((err.data as { field?: string } | null)?.field ?? "")
        : "";
      const key = field.startsWith("shape") ? (shape.kind === "circle" ? "radius" : "form") : field;
      setErrors({ [key || "form"]: err instanceof ApiError ? err.message : t("ui.requestFailed") });
    } finally {
      setBusy(false);
    }
  };
  return { v, set, bind, imeis, setImeis, errors, busy, shape, imeisError, submit };
}

/** A fence's alert flags, stay days, command and bound devices. */
function FenceRuleFields(
  { t, form, savedCommand }: { t: TFunction; form: ZoneFormState; savedCommand: string },
) {
  const { v, set, bind, errors } = form;
  return (
    <>
      <div class="gf-flags">
        {FLAGS.map((f) => (
          <label key={f} class="check">
            <input
              type="checkbox"
              name={f}
              checked={v[f]}
              onChange={(e) => set(f, (e.target as HTMLInputElement).checked)}
            />
            {t(`geofences.fields.${f}`)}
          </label>
        ))}
      </div>
      {(v.notInAlert || v.notOutAlert) && (
        <Field label={t("geofences.fields.stayDays")} error={errors.stayDays}>
          <input
            class="input"
            name="stayDays"
            type="number"
            min={1}
            max={365}
            value={v.stayDays}
            onInput={(e) =>
              set("stayDays", (e.target as HTMLInputElement).value)}
          />
        </Field>
      )}
      <Field
        label={t("geofences.fields.command")}
        hint={t("geofences.commandHint")}
        error={errors.command}
      >
        <input
          class="input"
          {...bind("command")}
          maxLength={500}
        />
      </Field>
      {v.command.trim() !== "" && v.command.trim() !== savedCommand && (
        <Field
          label={t("geofences.fields.commandPassword")}
          hint={t("geofences.commandPasswordHint")}
          error={errors.password}
        >
          <input
            class="input"
            type="password"
            name="password"
            autoComplete="current-password"
            value={v.password}
            onInput={(e) => set("password", (e.target as HTMLInputElement).value)}
          />
        </Field>
      )}
      <fieldset class="gf-devices">
        <legend class="field-label">{t("geofences.fields.imeis")}</legend>
        <FenceDevicePicker t={t} selected={form.imeis} onChange={form.setImeis} max={MAX_BOUND} />
        {form.imeisError && <span class="field-error" role="alert">{form.imeisError}</span>}
      </fieldset>
    </>
  );
}

import {
  type EditorProps,
  TemplatesPage,
  useTemplates,
} from "../../components/commands/useTemplates.tsx";
import { TemplateForm, useTemplateSave } from "../../components/commands/TemplateFields.tsx";
import { RowActions } from "../../components/commands/PageParts.tsx";
import { DataTable } from "../../components/commands/DataTable.tsx";
import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { formatDateTime } from "../../components/commands/format.ts";
import { codeRefusal } from "../../components/commands/useSubmit.ts";
import {
  checkCycles,
  cycleBody,
  type CycleForm,
  cycleSummary,
  DAYS,
  LIMITS,
  MAX_CYCLES,
  MODES,
  newCycle,
} from "../../components/commands/cycles.ts";

type Cycle = ReturnType<typeof cycleBody>;
interface Template {
  id: string;
  name: string;
  cycles: Cycle[];
  createdAt: string;
}

/** A template as its editor holds it (cycles as form values). */
type Editing = { id: string; name: string; cycles: CycleForm[] };

function toForm(c: Cycle): CycleForm {
  return {
    ...newCycle(),
    ...c,
    syncInterval: String(c.syncInterval ?? 10),
    limitValue: c.limitValue === undefined ? "" : String(c.limitValue),
  } as CycleForm;
}

/** /workingModeTemplate: normal, timing and week cycles with their limitations. */
function WorkModeTemplates({ lang, canModify }: { lang: Lang; canModify: boolean }) {
  const t = translator(lang);
  const templates = useTemplates<{ list: Template[] }, Template, Editing>(
    "/v3/new/workMode/template/list",
    "/v3/new/workMode/template/delete",
  );
  const { data, setEditing, setRemoving } = templates;
  const list = data?.list ?? null;
  return (
    <TemplatesPage
      t={t}
      page="workingModeTemplate"
      canModify={canModify}
      list={templates}
      add={{
        label: t("commands.ui.addWorkMode"),
        disabled: !canModify,
        onClick: () => setEditing({ id: "", name: "", cycles: [newCycle()] }),
      }}
      editor={(p) => <WorkModeDialog t={t} {...p} />}
    >
      <DataTable
        t={t}
        columns={4}
        loading={!list}
        empty={t("commands.ui.noWorkModes")}
        count={list?.length ?? 0}
        head={
          <>
            <th>{t("commands.ui.templateName")}</th>
            <th>{t("commands.ui.cycles")}</th>
            <th>{t("commands.columns.createdAt")}</th>
            <th class="col-actions">{t("commands.columns.actions")}</th>
          </>
        }
      >
        {list?.map((x) => (
          <tr key={x.id}>
            <td class="strong">{x.name}</td>
            <td>
              <ol class="cmd-cycles">
                {x.cycles.map((c, i) => <li key={i}>{cycleSummary(t, c)}</li>)}
              </ol>
            </td>
            <td>{formatDateTime(x.createdAt)}</td>
            {canModify
              ? (
                <RowActions
                  t={t}
                  onEdit={() =>
                    setEditing({ id: x.id, name: x.name, cycles: x.cycles.map(toForm) })}
                  onDelete={() => setRemoving(x)}
                />
              )
              : <td />}
          </tr>
        ))}
      </DataTable>
    </TemplatesPage>
  );
}

function WorkModeDialog({ t, initial, onClose, onSaved }: EditorProps<Editing> & {
  t: ReturnType<typeof translator>;
}) {
  const [cycles, setCycles] = useState<CycleForm[]>(initial.cycles);
  const { errors, save, form } = useTemplateSave(
    t,
    "/v3/new/workMode/template/save",
    initial,
    onSaved,
  );
  const update = (i: number, patch: Partial<CycleForm>) =>
    setCycles(cycles.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const submit = () =>
    save(checkCycles(t, cycles), { cycles: cycles.map(cycleBody) }, (err) => {
      const field = refusedField(err);
      const msg = (err as Error).message;
      if (field?.startsWith("cycles.")) return { [field.slice(7)]: msg };
      if (field === "name") return { name: msg };
      return codeRefusal(err, 43011, "name");
    });
  const err = (i: number, k: string) => errors[`${i}.${k}`];
  /** A typed value of cycle `i` in its labelled field (named `<key><i>`); numbers from 1 to `max`. */
  const value = (
    c: CycleForm,
    i: number,
    k: "syncInterval" | "wakeUpTime" | "syncTime" | "limitValue",
    type: "number" | "time",
    label: string,
    max?: number,
  ) => (
    <Field
      label={label}
      required
      error={err(i, k)}
      hint={max ? t("commands.ui.range", { min: 1, max }) : undefined}
    >
      <input
        class="input"
        type={type}
        name={`${k}${i}`}
        value={c[k]}
        onInput={(e) => update(i, { [k]: (e.target as HTMLInputElement).value })}
      />
    </Field>
  );
  return (
    <TemplateForm
      t={t}
      title={t(initial.id ? "commands.ui.editWorkMode" : "commands.ui.addWorkMode")}
      formId="cmd-workmode-form"
      width={720}
      {...form}
      onSubmit={submit}
      onClose={onClose}
    >
      {cycles.map((c, i) => (
        <fieldset key={i} class="cmd-cycle" data-cycle={i}>
          <legend>
            {t("commands.ui.cycleN", { n: i + 1 })}
            {cycles.length > 1 && (
              <button
                type="button"
                class="link-btn danger"
                onClick={() => setCycles(cycles.filter((_, j) => j !== i))}
              >
                {t("ui.delete")}
              </button>
            )}
          </legend>
          <div class="form-grid">
            <Field label={t("commands.ui.mode")} required>
              <select
                class="input"
                name={`mode${i}`}
                value={c.mode}
                onChange={(e) =>
                  update(i, { mode: (e.target as HTMLSelectElement).value as CycleForm["mode"] })}
              >
                {MODES.map((m) => <option key={m} value={m}>{t(`commands.modes.${m}`)}</option>)}
              </select>
            </Field>
            {c.mode !== "week" &&
              value(c, i, "syncInterval", "number", t("commands.ui.syncInterval"), 1440)}
            {c.mode === "timing" && value(c, i, "wakeUpTime", "time", t("commands.ui.wakeUpTime"))}
            {c.mode === "week" && value(c, i, "syncTime", "time", t("commands.ui.syncTime"))}
            <Field label={t("commands.ui.limitation")} required error={err(i, "limitType")}>
              <select
                class="input"
                name={`limitType${i}`}
                value={c.limitType}
                onChange={(e) =>
                  update(i, {
                    limitType: (e.target as HTMLSelectElement).value as CycleForm["limitType"],
                  })}
              >
                {LIMITS.map((l) => <option key={l} value={l}>{t(`commands.limits.${l}`)}</option>)}
              </select>
            </Field>
            {c.limitType !== "unlimited" &&
              value(c, i, "limitValue", "number", t(`commands.ui.limitValue.${c.limitType}`), 999)}
          </div>
          {c.mode !== "normal" && (
            <Field label={t("commands.ui.repeatDays")} required error={err(i, "repeatDays")}>
              <div class="cmd-days">
                {DAYS.map((d) => (
                  <label key={d} class={c.repeatDays.includes(d) ? "on" : ""}>
                    <input
                      type="checkbox"
                      name={`day${i}-${d}`}
                      checked={c.repeatDays.includes(d)}
                      onChange={(e) =>
                        update(i, {
                          repeatDays: (e.target as HTMLInputElement).checked
                            ? [...c.repeatDays, d]
                            : c.repeatDays.filter((x) => x !== d),
                        })}
                    />
                    {t(`commands.days.${d}`)}
                  </label>
                ))}
              </div>
            </Field>
          )}
        </fieldset>
      ))}
      <button
        type="button"
        class="btn"
        disabled={cycles.length >= MAX_CYCLES}
        onClick={() => setCycles([...cycles, newCycle()])}
      >
        {t("commands.ui.addCycle", { max: MAX_CYCLES })}
      </button>
      <p class="field-hint">{t("commands.ui.cycleRule")}</p>
    </TemplateForm>
  );
}

export default island("commands/WorkModeTemplates", WorkModeTemplates);

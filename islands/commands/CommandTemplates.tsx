import { RemoveTemplate, useTemplates } from "../../components/commands/useTemplates.tsx";
import {
  checkTemplateName,
  SaveFooter,
  TemplateNameField,
} from "../../components/commands/TemplateFields.tsx";
import { PageHead, RowActions } from "../../components/commands/PageParts.tsx";
import { DataTable } from "../../components/commands/DataTable.tsx";
import { useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../../components/ui/Field.tsx";
import { Modal } from "../../components/ui/Modal.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { formatDateTime, instructionName } from "../../components/commands/format.ts";
import { InstructionPicker } from "../../components/commands/InstructionPicker.tsx";
import {
  checkParams,
  defaultParams,
  ParamFields,
  paramsBody,
  type ParamValues,
} from "../../components/commands/ParamFields.tsx";
import type { Catalogue } from "../../components/commands/types.ts";

interface Template {
  id: string;
  name: string;
  code: string;
  params: ParamValues;
  createdAt: string;
}

/** A parameter summary such as "seconds=30". */
function paramsText(p: ParamValues): string {
  return Object.entries(p).map(([k, v]) =>
    `${k}=${Array.isArray(v) ? v.filter(Boolean).join("/") : v}`
  ).join(", ") || "—";
}

/** /commandTemplate: up to five saved instructions with parameters. */
function CommandTemplates({ lang, catalogue, canModify }: {
  lang: Lang;
  catalogue: Catalogue;
  /** modifyCommandFlag (and instructionsFlag for a virtual user). */
  canModify: boolean;
}) {
  const t = translator(lang);
  const { data, editing, setEditing, saved, removing, setRemoving, remove } = useTemplates<
    { limit: number; list: Template[] },
    Template
  >("/v3/new/command/template/list", "/v3/new/command/template/delete", t("ui.saved"));
  const full = !!data && data.list.length >= data.limit;
  const fresh = (): Template => {
    const first = catalogue.instructions[0];
    return {
      id: "",
      name: "",
      code: first.code,
      params: defaultParams(first.params),
      createdAt: "",
    };
  };

  return (
    <div class="cmd-page">
      <PageHead t={t} page="commandTemplate" />
      {!canModify && <p class="notice">{t("commands.ui.noModify")}</p>}
      <section class="panel">
        <div class="toolbar">
          <span class="field-hint">
            {t("commands.ui.templateCount", {
              count: data?.list.length ?? 0,
              max: data?.limit ?? 5,
            })}
          </span>
          <span class="grow" />
          <button
            type="button"
            class="btn btn-primary"
            disabled={!data || full || !canModify}
            title={full ? t("errors.commandTemplateLimit", { max: data!.limit }) : undefined}
            onClick={() => setEditing(fresh())}
          >
            {t("commands.ui.addTemplate")}
          </button>
        </div>
        <DataTable
          t={t}
          columns={5}
          loading={!data}
          empty={t("commands.ui.noTemplates")}
          count={data?.list.length ?? 0}
          head={
            <>
              <th>{t("commands.ui.templateName")}</th>
              <th>{t("commands.columns.name")}</th>
              <th>{t("commands.columns.parameters")}</th>
              <th>{t("commands.columns.createdAt")}</th>
              <th class="col-actions">{t("commands.columns.actions")}</th>
            </>
          }
        >
          {data?.list.map((x) => (
            <tr key={x.id}>
              <td class="strong">{x.name}</td>
              <td>{instructionName(t, x.code)}</td>
              <td class="mono">{paramsText(x.params)}</td>
              <td>{formatDateTime(x.createdAt)}</td>
              {canModify
                ? <RowActions t={t} onEdit={() => setEditing(x)} onDelete={() => setRemoving(x)} />
                : <td />}
            </tr>
          ))}
        </DataTable>
      </section>
      {editing && (
        <TemplateDialog
          t={t}
          catalogue={catalogue}
          initial={editing}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      {removing && (
        <RemoveTemplate
          t={t}
          name={removing.name}
          onCancel={() => setRemoving(null)}
          onConfirm={remove}
        />
      )}
      <Toasts />
    </div>
  );
}

function TemplateDialog({ t, catalogue, initial, onClose, onSaved }: {
  t: ReturnType<typeof translator>;
  catalogue: Catalogue;
  initial: Template;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(initial.name);
  const [code, setCode] = useState(initial.code);
  const [values, setValues] = useState<ParamValues>({
    ...defaultParams(catalogue.instructions.find((i) => i.code === initial.code)!.params),
    ...initial.params,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const def = catalogue.instructions.find((i) => i.code === code)!;
  const save = async (e: Event) => {
    e.preventDefault();
    const found = checkParams(t, def.params, values);
    checkTemplateName(t, name, found);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api("/v3/new/command/template/save", {
        ...(initial.id ? { id: initial.id } : {}),
        name: name.trim(),
        code,
        params: paramsBody(def.params, values),
      });
      toast(t("ui.saved"));
      onSaved();
    } catch (err) {
      const field = refusedField(err);
      const msg = (err as ApiError).message;
      if (field) setErrors({ [field.replace(/^params\./, "").split(".")[0]]: msg });
      else if (err instanceof ApiError && err.code === 43009) setErrors({ name: msg });
      else toast(msg, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t(initial.id ? "commands.ui.editTemplate" : "commands.ui.addTemplate")}
      closeLabel={t("ui.close")}
      onClose={onClose}
      footer={<SaveFooter t={t} form="cmd-template-form" busy={busy} onClose={onClose} />}
    >
      <form id="cmd-template-form" class="cmd-form" onSubmit={save} noValidate>
        <TemplateNameField t={t} value={name} error={errors.name} onValue={setName} />
        <Field label={t("commands.columns.name")} required>
          <InstructionPicker
            t={t}
            catalogue={catalogue}
            code={code}
            onChange={(c) => {
              setCode(c);
              setValues(defaultParams(catalogue.instructions.find((i) => i.code === c)!.params));
              setErrors({});
            }}
          />
        </Field>
        <ParamFields
          t={t}
          params={def.params}
          values={values}
          errors={errors}
          onChange={setValues}
        />
      </form>
    </Modal>
  );
}

export default island("commands/CommandTemplates", CommandTemplates);

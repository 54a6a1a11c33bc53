import {
  type EditorProps,
  TemplatesPage,
  useTemplates,
} from "../../components/commands/useTemplates.tsx";
import { TemplateForm, useTemplateSave } from "../../components/commands/TemplateFields.tsx";
import { RowActions } from "../../components/commands/PageParts.tsx";
import { DataTable } from "../../components/commands/DataTable.tsx";
import { island } from "../../lib/islands/island.tsx";
import { refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { formatDateTime, instructionName } from "../../components/commands/format.ts";
import { InstructionPicker } from "../../components/commands/InstructionPicker.tsx";
import { codeRefusal } from "../../components/commands/useSubmit.ts";
import {
  checkParams,
  defaultParams,
  InstructionFields,
  paramsBody,
  type ParamValues,
  useInstruction,
} from "../../components/commands/ParamFields.tsx";
import type { Catalogue, CommandTemplate as Template } from "../../components/commands/types.ts";
import { startInstruction } from "../../modules/commands/model.ts";

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
  const list = useTemplates<{ limit: number; list: Template[] }, Template>(
    "/v3/new/command/template/list",
    "/v3/new/command/template/delete",
    t("ui.saved"),
  );
  const { data, setEditing, setRemoving } = list;
  const full = !!data && data.list.length >= data.limit;
  const fresh = (): Template => {
    // A new template starts on a harmless instruction, never on an engine cut.
    const first = startInstruction(catalogue.instructions) ?? catalogue.instructions[0];
    return {
      id: "",
      name: "",
      code: first.code,
      params: defaultParams(first.params),
      createdAt: "",
    };
  };

  return (
    <TemplatesPage
      t={t}
      page="commandTemplate"
      vars={{ max: data?.limit ?? 5 }}
      canModify={canModify}
      list={list}
      hint={
        <span class="field-hint">
          {t("commands.ui.templateCount", {
            count: data?.list.length ?? 0,
            max: data?.limit ?? 5,
          })}
        </span>
      }
      add={{
        label: t("commands.ui.addTemplate"),
        disabled: !data || full || !canModify,
        title: full ? t("errors.commandTemplateLimit", { max: data!.limit }) : undefined,
        onClick: () => setEditing(fresh()),
      }}
      editor={(p) => <TemplateDialog t={t} catalogue={catalogue} {...p} />}
    >
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
    </TemplatesPage>
  );
}

function TemplateDialog({ t, catalogue, initial, onClose, onSaved }: EditorProps<Template> & {
  t: ReturnType<typeof translator>;
  catalogue: Catalogue;
}) {
  const find = (code: string) => catalogue.instructions.find((i) => i.code === code)!;
  const instruction = useInstruction(find(initial.code), initial.params);
  const { errors, setErrors, save, form } = useTemplateSave(
    t,
    "/v3/new/command/template/save",
    initial,
    onSaved,
  );
  const def = instruction.def!;
  const submit = () =>
    save(checkParams(t, def.params, instruction.values), {
      code: def.code,
      params: paramsBody(def.params, instruction.values),
    }, (err) => {
      const field = refusedField(err);
      if (field) return { [field.replace(/^params\./, "").split(".")[0]]: (err as Error).message };
      return codeRefusal(err, 43009, "name");
    });
  return (
    <TemplateForm
      t={t}
      title={t(initial.id ? "commands.ui.editTemplate" : "commands.ui.addTemplate")}
      formId="cmd-template-form"
      {...form}
      onSubmit={submit}
      onClose={onClose}
    >
      <InstructionFields t={t} instruction={instruction} errors={errors}>
        <InstructionPicker
          t={t}
          catalogue={catalogue}
          code={def.code}
          onChange={(c) => {
            instruction.choose(find(c));
            setErrors({});
          }}
        />
      </InstructionFields>
    </TemplateForm>
  );
}

export default island("commands/CommandTemplates", CommandTemplates);

import { fieldMsg } from "../../components/commands/format.ts";
import { useEffect, useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { Field } from "../../components/ui/Field.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { BatchList } from "../../components/commands/BatchList.tsx";
import { BatchProgress } from "../../components/commands/BatchProgress.tsx";
import { PasswordField, SendTypeField } from "../../components/commands/SendFields.tsx";
import { BatchLayout, BatchSubmit, PageHead } from "../../components/commands/PageParts.tsx";
import {
  type Acceptance,
  InstructionPicker,
  needsPassword,
} from "../../components/commands/InstructionPicker.tsx";
import { useDebounced } from "../../components/accounts/hooks.ts";
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
}

interface Props {
  lang: Lang;
  root: AccountRef;
  /** isBatchSendIns (and instructionsFlag for a virtual user). */
  allowed: boolean;
  catalogue: Catalogue;
  maxDevices: number;
}

/** /batchCommand: choose devices, an instruction (or a template) and send it to all. */
function BatchCommand({ lang, root, allowed, catalogue, maxDevices }: Props) {
  const t = translator(lang);
  const [imeis, setImeis] = useState<string[]>([]);
  const [code, setCode] = useState(catalogue.instructions[0].code);
  const def = catalogue.instructions.find((i) => i.code === code)!;
  const [values, setValues] = useState<ParamValues>(defaultParams(def.params));
  const [sendType, setSendType] = useState<"online" | "offline">("online");
  const [replace, setReplace] = useState(false);
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [batchNo, setBatchNo] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [acceptance, setAcceptance] = useState<Acceptance | null>(null);
  const chosen = useDebounced(imeis);
  const protectedCmd = needsPassword(catalogue, code, acceptance);

  // What the chosen devices' models accept (the list offers only those).
  useEffect(() => {
    if (!chosen.length) return setAcceptance(null);
    let live = true;
    api<Acceptance>("/v3/new/command/batchInstructions", { imeis: chosen })
      .then((a) => live && setAcceptance(a), () => live && setAcceptance(null));
    return () => (live = false);
  }, [chosen]);

  useEffect(() => {
    api<{ list: Template[] }>("/v3/new/command/template/list", {})
      .then((d) => setTemplates(d.list), () => {});
  }, []);

  const choose = (next: string, params?: ParamValues) => {
    const d = catalogue.instructions.find((i) => i.code === next)!;
    setCode(next);
    setValues({ ...defaultParams(d.params), ...(params ?? {}) });
    setErrors({});
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = checkParams(t, def.params, values);
    if (!imeis.length) found.devices = t("errors.noDevicesChosen");
    if (protectedCmd && !password) found.password = fieldMsg(t, "validation.required");
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const r = await api<{ batchNo: string; deviceCount: number; rejected: unknown[] }>(
        "/v3/new/command/batchSend",
        {
          imeis,
          code,
          params: paramsBody(def.params, values),
          sendType,
          replace,
          ...(protectedCmd ? { password } : {}),
        },
      );
      toast(t("commands.ui.batchSent", { batchNo: r.batchNo, count: r.deviceCount }));
      if (r.rejected.length) {
        toast(t("commands.ui.rejected", { count: r.rejected.length }), "error");
      }
      setBatchNo(r.batchNo);
      setVersion((v) => v + 1);
      setPassword("");
    } catch (err) {
      const field = refusedField(err);
      if (field?.startsWith("params.")) {
        setErrors({ [field.split(".")[1]]: (err as ApiError).message });
      } else if (err instanceof ApiError && err.code === 43003) {
        setErrors({ password: err.message });
      } else toast((err as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="cmd-page">
      <PageHead t={t} page="batchCommand" />
      <BatchLayout
        t={t}
        allowed={allowed}
        root={root}
        imeis={imeis}
        onImeis={setImeis}
        maxDevices={maxDevices}
        error={errors.devices}
        formTitle={t("commands.ui.step2")}
        onSubmit={submit}
      >
        {templates.length > 0 && (
          <Field label={t("commands.ui.useTemplate")}>
            <select
              class="input"
              name="template"
              onChange={(e) => {
                const tpl = templates.find((x) => x.id === (e.target as HTMLSelectElement).value);
                if (tpl) choose(tpl.code, tpl.params);
              }}
            >
              <option value="">{t("commands.ui.noTemplate")}</option>
              {templates.map((x) => <option key={x.id} value={x.id}>{x.name}</option>)}
            </select>
          </Field>
        )}
        <Field label={t("commands.columns.name")} required>
          <InstructionPicker
            t={t}
            catalogue={catalogue}
            code={code}
            onChange={(c) => choose(c)}
            acceptance={acceptance}
          />
        </Field>
        <ParamFields
          t={t}
          params={def.params}
          values={values}
          errors={errors}
          onChange={setValues}
        />
        <SendTypeField
          t={t}
          sendType={sendType}
          onSendType={setSendType}
          replace={replace}
          onReplace={setReplace}
        />
        {protectedCmd && (
          <PasswordField t={t} value={password} error={errors.password} onInput={setPassword} />
        )}
        <BatchSubmit
          t={t}
          count={imeis.length}
          disabled={!allowed}
          busy={busy}
          label={t("commands.ui.send")}
        />
      </BatchLayout>
      {batchNo && <BatchProgress t={t} batchNo={batchNo} />}
      <BatchList
        t={t}
        category="command"
        version={version}
        statusHref={(b) => `/commandStatus?batchNo=${encodeURIComponent(b)}`}
      />
      <Toasts />
    </div>
  );
}

export default island("commands/BatchCommand", BatchCommand);

import { fieldMsg } from "../../components/commands/format.ts";
import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { Field } from "../../components/ui/Field.tsx";
import { toast } from "../../components/ui/Toast.tsx";
import { BatchProgress } from "../../components/commands/BatchProgress.tsx";
import {
  passwordBody,
  PasswordField,
  passwordRefusal,
} from "../../components/commands/SendFields.tsx";
import { BatchPage, type SentBatch, useBatchForm } from "../../components/commands/BatchPage.tsx";
import { paramRefusal } from "../../components/commands/useSubmit.ts";
import {
  type Acceptance,
  InstructionPicker,
  needsPassword,
} from "../../components/commands/InstructionPicker.tsx";
import { useDebounced } from "../../components/accounts/hooks.ts";
import {
  checkParams,
  InstructionFields,
  paramsBody,
  type ParamValues,
  useInstruction,
} from "../../components/commands/ParamFields.tsx";
import type { Catalogue, CommandTemplate } from "../../components/commands/types.ts";
import { DangerConfirm } from "../../components/commands/DangerConfirm.tsx";
import { dangerOf, startInstruction } from "../../modules/commands/model.ts";

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
  const form = useBatchForm({ sendType: "online", replace: false });
  // Starts on a harmless instruction (Locate), never on an engine cut.
  const instruction = useInstruction(
    startInstruction(catalogue.instructions) ?? catalogue.instructions[0],
  );
  const def = instruction.def!;
  const code = def.code;
  const [password, setPassword] = useState("");
  const [askDanger, setAskDanger] = useState(false);
  const [batchNo, setBatchNo] = useState<string | null>(null);
  const [templates, setTemplates] = useState<CommandTemplate[]>([]);
  const [acceptance, setAcceptance] = useState<Acceptance | null>(null);
  const chosen = useDebounced(form.imeis);
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
    api<{ list: CommandTemplate[] }>("/v3/new/command/template/list", {})
      .then((d) => setTemplates(d.list), () => {});
  }, []);

  const choose = (next: string, params?: ParamValues) => {
    instruction.choose(catalogue.instructions.find((i) => i.code === next)!, params);
    form.setErrors({});
  };

  /** A dangerous instruction (engine cut) to chosen devices is confirmed before it is sent. */
  const submit = (e: Event) => {
    e.preventDefault();
    const ready = form.imeis.length > 0 && !(protectedCmd && !password);
    if (dangerOf(code) && ready) setAskDanger(true);
    else sendNow();
  };

  const sendNow = () => {
    const found = checkParams(t, def.params, instruction.values);
    if (protectedCmd && !password) found.password = fieldMsg(t, "validation.required");
    form.send(t, found, {
      post: () =>
        api<SentBatch & { rejected: unknown[] }>("/v3/new/command/batchSend", {
          imeis: form.imeis,
          code,
          params: paramsBody(def.params, instruction.values),
          sendType: form.sendType,
          replace: form.replace,
          ...passwordBody(protectedCmd, password),
        }),
      sent: (r) => {
        if (r.rejected.length) {
          toast(t("commands.ui.rejected", { count: r.rejected.length }), "error");
        }
        setBatchNo(r.batchNo);
        setPassword("");
      },
      refusal: (err) => paramRefusal(err) ?? passwordRefusal(err),
    });
  };

  return (
    <BatchPage
      t={t}
      kind="command"
      allowed={allowed}
      root={root}
      maxDevices={maxDevices}
      form={form}
      onSubmit={submit}
      confirm={
        <PasswordField
          t={t}
          needed={protectedCmd}
          value={password}
          error={form.errors.password}
          onInput={setPassword}
        />
      }
      after={
        <>
          {batchNo && <BatchProgress t={t} batchNo={batchNo} />}
          {askDanger && (
            <DangerConfirm
              t={t}
              code={code}
              danger={dangerOf(code)!}
              imeis={form.imeis}
              onCancel={() => setAskDanger(false)}
              onConfirm={() => {
                setAskDanger(false);
                sendNow();
              }}
            />
          )}
        </>
      }
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
      <InstructionFields t={t} instruction={instruction} errors={form.errors}>
        <InstructionPicker
          t={t}
          catalogue={catalogue}
          code={code}
          onChange={(c) => choose(c)}
          acceptance={acceptance}
        />
      </InstructionFields>
    </BatchPage>
  );
}

export default island("commands/BatchCommand", BatchCommand);

import { fieldMsg } from "../../components/commands/format.ts";
import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { Field } from "../../components/ui/Field.tsx";
import { toast } from "../../components/ui/Toast.tsx";
import { cycleBody, cycleSummary } from "../../components/commands/cycles.ts";
import { BatchPage, type SentBatch, useBatchForm } from "../../components/commands/BatchPage.tsx";

interface Template {
  id: string;
  name: string;
  cycles: ReturnType<typeof cycleBody>[];
}

/** /batchWorkingMode: apply a working-mode template to many devices. */
function BatchWorkMode({ lang, root, allowed, maxDevices }: {
  lang: Lang;
  root: AccountRef;
  allowed: boolean;
  maxDevices: number;
}) {
  const t = translator(lang);
  const form = useBatchForm({ sendType: "offline", replace: true });
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [templateId, setTemplateId] = useState("");
  useEffect(() => {
    api<{ list: Template[] }>("/v3/new/workMode/template/list", {}).then((d) => {
      setTemplates(d.list);
      if (d.list[0]) setTemplateId(d.list[0].id);
    }, (e) => toast((e as Error).message, "error"));
  }, []);
  const chosen = templates?.find((x) => x.id === templateId);
  const submit = (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!templateId) found.template = fieldMsg(t, "validation.required");
    form.send(t, found, {
      post: () =>
        api<SentBatch & { failed: number }>("/v3/new/workMode/apply", {
          templateId,
          imeis: form.imeis,
          sendType: form.sendType,
          replace: form.replace,
        }),
      sent: (r) => {
        if (r.failed) toast(t("commands.ui.someFailed", { count: r.failed }), "error");
      },
    });
  };
  return (
    <BatchPage
      t={t}
      kind="workMode"
      allowed={allowed}
      root={root}
      maxDevices={maxDevices}
      form={form}
      onSubmit={submit}
      ready={!templates || templates.length > 0}
    >
      {templates && !templates.length
        ? (
          <div class="empty">
            <p>{t("commands.ui.noWorkModes")}</p>
            <a class="btn" href="/workingModeTemplate">{t("commands.ui.addWorkMode")}</a>
          </div>
        )
        : (
          <>
            <Field label={t("commands.columns.template")} required error={form.errors.template}>
              <select
                class="input"
                name="template"
                value={templateId}
                onChange={(e) => setTemplateId((e.target as HTMLSelectElement).value)}
              >
                {templates?.map((x) => <option key={x.id} value={x.id}>{x.name}</option>)}
              </select>
            </Field>
            {chosen && (
              <ol class="cmd-cycles">
                {chosen.cycles.map((c, i) => <li key={i}>{cycleSummary(t, c)}</li>)}
              </ol>
            )}
          </>
        )}
    </BatchPage>
  );
}

export default island("commands/BatchWorkMode", BatchWorkMode);

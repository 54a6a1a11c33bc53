import { fieldMsg } from "../../components/commands/format.ts";
import { useEffect, useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { Field } from "../../components/ui/Field.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { BatchList } from "../../components/commands/BatchList.tsx";
import { cycleBody, cycleSummary } from "../../components/commands/cycles.ts";
import { SendTypeField } from "../../components/commands/SendFields.tsx";
import { BatchLayout, BatchSubmit, PageHead } from "../../components/commands/PageParts.tsx";

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
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [templateId, setTemplateId] = useState("");
  const [imeis, setImeis] = useState<string[]>([]);
  const [sendType, setSendType] = useState<"online" | "offline">("offline");
  const [replace, setReplace] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    api<{ list: Template[] }>("/v3/new/workMode/template/list", {}).then((d) => {
      setTemplates(d.list);
      if (d.list[0]) setTemplateId(d.list[0].id);
    }, (e) => toast((e as Error).message, "error"));
  }, []);
  const chosen = templates?.find((x) => x.id === templateId);
  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!templateId) found.template = fieldMsg(t, "validation.required");
    if (!imeis.length) found.devices = t("errors.noDevicesChosen");
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const r = await api<{ batchNo: string; deviceCount: number; failed: number }>(
        "/v3/new/workMode/apply",
        { templateId, imeis, sendType, replace },
      );
      toast(t("commands.ui.batchSent", { batchNo: r.batchNo, count: r.deviceCount }));
      if (r.failed) toast(t("commands.ui.someFailed", { count: r.failed }), "error");
      setVersion((v) => v + 1);
    } catch (err) {
      toast((err as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="cmd-page">
      <PageHead t={t} page="batchWorkingMode" />
      <BatchLayout
        t={t}
        allowed={allowed}
        root={root}
        imeis={imeis}
        onImeis={setImeis}
        maxDevices={maxDevices}
        error={errors.devices}
        formTitle={t("commands.ui.step2WorkMode")}
        onSubmit={submit}
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
              <Field label={t("commands.columns.template")} required error={errors.template}>
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
              <SendTypeField
                t={t}
                sendType={sendType}
                onSendType={setSendType}
                replace={replace}
                onReplace={setReplace}
              />
              <BatchSubmit
                t={t}
                count={imeis.length}
                disabled={!allowed}
                busy={busy}
                label={t("commands.ui.apply")}
              />
            </>
          )}
      </BatchLayout>
      <BatchList
        t={t}
        category="workMode"
        version={version}
        statusHref={(b) => `/workingModeStatus?batchNo=${encodeURIComponent(b)}`}
      />
      <Toasts />
    </div>
  );
}

export default island("commands/BatchWorkMode", BatchWorkMode);

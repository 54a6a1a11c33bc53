import type { TFunction } from "i18next";
import { ResultCounts } from "./ResultCounts.tsx";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { download, upload } from "./transfer_io.ts";
import { useAction } from "./useAction.ts";
import type { ModelInfo, SelectedAccount } from "./types.ts";
import { TabButtons } from "../ui/TabButtons.tsx";

const EQ = "/v3/new/newEquipment";
const MAX_IMPORT = 1000;

/** One line of an import or batch-edit result. */
export interface RowResult {
  row?: number;
  imei: string;
  ok: boolean;
  reason: string;
  warning?: string;
}

/** Per-row results with the counts on top (spec: per-row result shown). */
export function ResultTable({ t, results }: { t: TFunction; results: RowResult[] }) {
  const ok = results.filter((r) => r.ok).length;
  return (
    <div class="import-result" id="import-result">
      <ResultCounts t={t} okKey="devices.import.succeeded" ok={ok} total={results.length} />
      <div class="table-wrap result-wrap">
        <table class="data">
          <thead>
            <tr>
              <th>{t("devices.import.row")}</th>
              <th>{t("devices.col.imei")}</th>
              <th>{t("devices.import.reason")}</th>
            </tr>
          </thead>
          <tbody>
            {/* Refused rows first: they are the ones that need attention. */}
            {[...results].sort((a, b) => Number(a.ok) - Number(b.ok)).map((r, i) => (
              <tr key={i} class={r.ok ? "" : "row-bad"} data-result={r.ok ? "ok" : "failed"}>
                <td>{r.row ?? i + 1}</td>
                <td class="mono">{r.imei}</td>
                <td>
                  {r.ok
                    ? <span class="ok-text">✓ {r.warning ?? t("devices.import.ok")}</span>
                    : <span class="bad-text">{r.reason}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

interface ImportProps {
  t: TFunction;
  account: SelectedAccount;
  models: ModelInfo[];
  modelName: (mcType: string) => string;
  onClose: () => void;
  onDone: () => void;
}

/** Import by IMEI list or xlsx file into the selected account; shows a result per row. */
export function ImportDialog({ t, account, models, modelName, onClose, onDone }: ImportProps) {
  const [mode, setMode] = useState<"list" | "file">("list");
  const [mcType, setMcType] = useState(models[0]?.mcType ?? "");
  const [activation, setActivation] = useState("auto");
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const { busy, error, setError, run } = useAction();
  const [results, setResults] = useState<RowResult[] | null>(null);
  const imeis = text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
  const submit = () => {
    if (mode === "list" && (imeis.length === 0 || imeis.length > MAX_IMPORT)) {
      return setError(imeis.length ? t("devices.import.tooMany") : t("errors.imeiEmpty"));
    }
    if (mode === "file" && !file) return setError(t("devices.import.noFile"));
    return run(async () => {
      if (mode === "list") {
        const r = await api<{ succeeded: number; failed: { imei: string; reason: string }[] }>(
          `${EQ}/importEquipment`,
          { userId: account.id, mcType, imeis, activationMode: activation },
        );
        setResults(listResults(imeis, r.failed));
      } else {
        const form = new FormData();
        form.set("file", file!);
        form.set("userId", account.id);
        form.set("mcType", mcType);
        form.set("activationMode", activation);
        const r = await upload<{ results: RowResult[] }>(`${EQ}/importEquipmentFile`, form);
        setResults(r.results);
      }
      onDone();
    });
  };
  return (
    <Modal
      title={t("devices.import.title")}
      onClose={onClose}
      closeLabel={t("devices.detail.close")}
      width={640}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("devices.detail.close")}</button>
          {!results && (
            <button
              type="button"
              id="import-submit"
              class="btn btn-primary"
              disabled={busy}
              onClick={submit}
            >
              {busy ? t("ui.loading") : t("devices.import.submit")}
            </button>
          )}
          {results && (
            <button
              type="button"
              class="btn btn-primary"
              onClick={() => setResults(null)}
            >
              {t("devices.import.again")}
            </button>
          )}
        </>
      }
    >
      {error && <div class="form-error" role="alert">{error}</div>}
      {results ? <ResultTable t={t} results={results} /> : (
        <div class="import-form">
          <p class="dialog-note">
            {t("devices.import.account")}: <strong>{account.nickName}</strong> ({account.account})
          </p>
          <ImportModelFields
            t={t}
            models={models}
            modelName={modelName}
            mcType={mcType}
            onMcType={setMcType}
            activation={activation}
            onActivation={setActivation}
          />
          <div class="tabs small" role="tablist">
            <TabButtons
              tabs={["list", "file"] as const}
              active={mode}
              onSelect={setMode}
              label={(m) => t(m === "list" ? "devices.import.byList" : "devices.import.byFile")}
              idPrefix="import-mode-"
              tabClass="tab"
            />
          </div>
          {mode === "list"
            ? (
              <label class="field">
                <span class="field-label">{t("devices.import.imeis")}</span>
                <textarea
                  id="import-imeis"
                  rows={8}
                  class="mono"
                  value={text}
                  onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
                />
                <span class={`field-hint${imeis.length > MAX_IMPORT ? " bad-text" : ""}`}>
                  {t("devices.import.count", { count: imeis.length })}
                </span>
              </label>
            )
            : (
              <div class="file-pick">
                <label class="field">
                  <span class="field-label">{t("devices.import.file")}</span>
                  <input
                    id="import-file"
                    type="file"
                    accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
                  />
                </label>
                <button
                  type="button"
                  class="link-btn"
                  id="import-template"
                  onClick={() => download(`${EQ}/importTemplate`).catch((e) => setError(e.message))}
                >
                  ⤓ {t("devices.import.template")}
                </button>
              </div>
            )}
        </div>
      )}
    </Modal>
  );
}

/** The model the imported devices get and how they are activated. */
function ImportModelFields(
  { t, models, modelName, mcType, onMcType, activation, onActivation }: {
    t: TFunction;
    models: ModelInfo[];
    modelName: (mcType: string) => string;
    mcType: string;
    onMcType: (mcType: string) => void;
    activation: string;
    onActivation: (mode: string) => void;
  },
) {
  return (
    <div class="form-grid">
      <label class="field">
        <span class="field-label">
          <i class="req">*</i>
          {t("devices.import.model")}
        </span>
        <select
          id="import-model"
          value={mcType}
          onChange={(e) => onMcType((e.target as HTMLSelectElement).value)}
        >
          {models.map((m) => <option key={m.mcType} value={m.mcType}>{modelName(m.mcType)}
          </option>)}
        </select>
      </label>
      <label class="field">
        <span class="field-label">{t("devices.import.mode")}</span>
        <select
          id="import-activation"
          value={activation}
          onChange={(e) => onActivation((e.target as HTMLSelectElement).value)}
        >
          {["auto", "permission"].map((v) => (
            <option key={v} value={v}>{t(`devices.import.modes.${v}`)}</option>
          ))}
        </select>
      </label>
    </div>
  );
}

/**
 * One result per typed line. The server reports failures per IMEI; of k lines with the same
 * IMEI and f failures, the first k - f succeeded (later repeats are the ones refused).
 */
export function listResults(
  imeis: string[],
  failed: { imei: string; reason: string }[],
): RowResult[] {
  const reasons = new Map<string, string[]>();
  for (const f of failed) reasons.set(f.imei, [...reasons.get(f.imei) ?? [], f.reason]);
  const left = new Map<string, number>();
  for (const imei of imeis) left.set(imei, (left.get(imei) ?? 0) + 1);
  return imeis.map((imei, i) => {
    const remaining = left.get(imei)!;
    left.set(imei, remaining - 1);
    const queue = reasons.get(imei) ?? [];
    // Failures belong to the last lines of that IMEI.
    const reason = remaining <= queue.length ? queue[queue.length - remaining] : "";
    return { row: i + 1, imei, ok: !reason, reason };
  });
}

interface BatchProps {
  t: TFunction;
  imeis: string[];
  onClose: () => void;
  onDone: () => void;
}

/** Batch edit: download the selected devices' values, edit them, upload; a result per row. */
export function BatchEditDialog({ t, imeis, onClose, onDone }: BatchProps) {
  const { busy, error, setError, run } = useAction();
  const [results, setResults] = useState<RowResult[] | null>(null);
  const send = (file: File) =>
    run(async () => {
      const form = new FormData();
      form.set("file", file);
      setResults(await upload<RowResult[]>(`${EQ}/batchEditUpload`, form));
      onDone();
    });
  return (
    <Modal
      title={t("devices.batchEdit.title")}
      onClose={onClose}
      closeLabel={t("devices.detail.close")}
      width={640}
    >
      {error && <div class="form-error" role="alert">{error}</div>}
      {results ? <ResultTable t={t} results={results} /> : (
        <div class="steps">
          <p>{t("devices.batchEdit.step1", { count: imeis.length })}</p>
          <button
            type="button"
            class="btn"
            id="batch-download"
            onClick={() =>
              download(`${EQ}/batchEditTemplate`, { imeis }).catch((e) => setError(e.message))}
          >
            ⤓ {t("devices.batchEdit.download")}
          </button>
          <p>{t("devices.batchEdit.step2")}</p>
          <label class={`btn btn-primary file-btn${busy ? " disabled" : ""}`}>
            ⤒ {t("devices.batchEdit.upload")}
            <input
              id="batch-file"
              type="file"
              accept=".xlsx"
              disabled={busy}
              onChange={(e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) send(f);
              }}
            />
          </label>
        </div>
      )}
    </Modal>
  );
}

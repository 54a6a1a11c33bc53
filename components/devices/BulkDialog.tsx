import type { TFunction } from "i18next";
import { ResultCounts } from "./ResultCounts.tsx";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { ActionModal } from "./ActionDialogs.tsx";
import type { DeviceRow } from "./types.ts";
import { useAction } from "./useAction.ts";
import type { BulkLine, BulkOutcome } from "../../modules/devices/model.ts";

const EQ = "/v3/new/newEquipment";

/** A result line as the API answers it: with the refusal's reason in the caller's language. */
export type Line = BulkLine & { reason: string };
export type Outcome = BulkOutcome & { results: Line[] };

/**
 * Enable or disable the ticked devices: the dialog names them and asks first, then shows
 * which devices were changed and why the others were not.
 */
export function EnableDialog({ t, rows, enabled, onClose, onDone }: {
  t: TFunction;
  rows: DeviceRow[];
  enabled: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const a = useAction();
  const verb = enabled ? "enable" : "disable";
  const submit = () =>
    a.run(async () => {
      const r = await api<Outcome>(`${EQ}/enableEquipment`, {
        imeis: rows.map((r) => r.imei),
        enabled,
      });
      setOutcome(r);
      toast(t(`devices.bulk.${verb}d`, { count: r.done }));
      onDone();
    });
  return (
    <ActionModal
      t={t}
      title={t(`devices.bulk.${verb}Title`, { count: rows.length })}
      submitId="bulk-submit"
      submitLabel={t(`devices.actions.${verb}`)}
      busy={a.busy}
      error={a.error}
      finished={!!outcome}
      width={640}
      onClose={onClose}
      onSubmit={submit}
    >
      {outcome ? <BulkLines t={t} lines={outcome.results} /> : (
        <>
          <p>{t(`devices.bulk.${verb}Ask`, { count: rows.length })}</p>
          <BulkLines t={t} lines={rows.map(pending)} />
        </>
      )}
    </ActionModal>
  );
}

/** A ticked device before the action: no result yet. */
export function pending(r: DeviceRow): Line | (Omit<Line, "ok"> & { ok: null }) {
  return { imei: r.imei, deviceName: r.deviceName, ok: null, error: null, reason: "" };
}

/**
 * The devices of a bulk action, before it (`ok` null) or after it: refused devices first,
 * each with its reason, under counts of changed and refused ones.
 */
export function BulkLines({ t, lines }: {
  t: TFunction;
  lines: (Line | (Omit<Line, "ok"> & { ok: null }))[];
}) {
  const result = lines.some((l) => l.ok !== null);
  const good = lines.filter((l) => l.ok).length;
  return (
    <div id={result ? "bulk-result" : "bulk-devices"}>
      {result && <ResultCounts t={t} okKey="devices.bulk.okCount" ok={good} total={lines.length} />}
      <div class="table-wrap result-wrap">
        <table class="data">
          <thead>
            <tr>
              <th>{t("devices.col.imei")}</th>
              <th>{t("devices.col.deviceName")}</th>
              {result && <th>{t("devices.renew.state")}</th>}
            </tr>
          </thead>
          <tbody>
            {[...lines].sort((a, b) => Number(a.ok) - Number(b.ok)).map((l) => (
              <tr
                key={l.imei}
                class={l.ok === false ? "row-bad" : ""}
                data-bulk={l.ok === null ? "pending" : l.ok ? "ok" : "failed"}
              >
                <td class="mono">{l.imei}</td>
                <td>{l.deviceName || "—"}</td>
                {result && (
                  <td>
                    {l.ok
                      ? <span class="ok-text">✓ {t("devices.bulk.changed")}</span>
                      : <span class="bad-text">{l.reason}</span>}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

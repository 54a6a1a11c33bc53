import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { LIVE_STATUSES, replyText } from "./format.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import type { CommandRow } from "./types.ts";

interface Detail {
  counts: Record<string, number>;
  list: CommandRow[];
}

const POLL_MS = 1000;

/** Live per-device results of a batch just sent, polled until no row is still moving. */
export function BatchProgress({ t, batchNo }: { t: TFunction; batchNo: string }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      api<Detail>("/v3/new/command/batchDetail", { batchNo }).then((d) => {
        if (!live) return;
        setDetail(d);
        if (d.list.some((r) => LIVE_STATUSES.has(r.status))) {
          timer = setTimeout(load, POLL_MS);
        }
      }, (e) => toast((e as Error).message, "error"));
    load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [batchNo]);
  if (!detail) return <p class="tree-note">{t("ui.loading")}</p>;
  const total = detail.list.length;
  const done = detail.list.filter((r) => !LIVE_STATUSES.has(r.status)).length;
  return (
    <section class="panel cmd-progress" data-batch={batchNo}>
      <header class="cmd-progress-head">
        <h2 class="panel-title">{t("commands.ui.progressTitle", { batchNo })}</h2>
        <a class="link-btn" href={`/commandStatus?batchNo=${encodeURIComponent(batchNo)}`}>
          {t("commands.ui.openStatus")}
        </a>
      </header>
      <div
        class={`cmd-bar${done === total ? " done" : ""}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <span style={{ width: `${total ? (100 * done) / total : 0}%` }} />
      </div>
      <p class="cmd-counts">
        {Object.entries(detail.counts).map(([status, n]) => (
          <span key={status}>
            <StatusBadge t={t} status={status} /> {n}
          </span>
        ))}
      </p>
      <div class="table-wrap cmd-progress-table">
        <table class="data">
          <thead>
            <tr>
              <th>{t("commands.columns.imei")}</th>
              <th>{t("commands.columns.content")}</th>
              <th>{t("commands.columns.status")}</th>
              <th>{t("commands.columns.reply")}</th>
            </tr>
          </thead>
          <tbody>
            {detail.list.map((r) => (
              <tr key={r.id} data-imei={r.imei}>
                <td class="mono">{r.imei}</td>
                <td class="mono">{r.content}</td>
                <td>
                  <StatusBadge t={t} status={r.status} />
                </td>
                <td class="cmd-reply">{replyText(t, r.reply)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

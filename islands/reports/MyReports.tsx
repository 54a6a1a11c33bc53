import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { REPORT_GROUPS, REPORT_NAMES, type ReportName } from "../../modules/reports/model.ts";

const GET = "/v3/new/report/myReports/get";
const SET = "/v3/new/report/myReports/set";
const BUILT = new Set<string>(REPORT_NAMES);

/** The user's own list on /reportList: links to their reports, each removable. */
function MyReportList({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [list, setList] = useState<ReportName[] | null>(null);
  useEffect(() => {
    api<{ list: ReportName[] }>(GET, {}).then((d) => setList(d.list), (e) => {
      setList([]);
      toast((e as Error).message, "error");
    });
  }, []);
  const remove = async (name: ReportName) => {
    try {
      const d = await api<{ list: ReportName[] }>(SET, { list: list!.filter((n) => n !== name) });
      setList(d.list);
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  return (
    <section class="panel rp-mine" data-testid="my-reports">
      <div class="panel-title">
        <h2>{t("reports.list.mine")}</h2>
        <a class="btn btn-primary" href="/addReport" id="add-report">{t("reports.list.add")}</a>
      </div>
      {list === null
        ? <p class="muted">{t("reports.table.loading")}</p>
        : list.length === 0
        ? <p class="muted rp-mine-empty">{t("reports.list.mineEmpty")}</p>
        : (
          <ul class="rp-tiles">
            {list.map((name) => (
              <li key={name} class="rp-tile" data-report={name}>
                <a href={`/new/${name}`}>{t(`reports.names.${name}`)}</a>
                <button
                  type="button"
                  class="icon-btn"
                  aria-label={t("reports.list.remove", { name: t(`reports.names.${name}`) })}
                  onClick={() => remove(name)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      <Toasts />
    </section>
  );
}

/** /addReport: tick the reports to keep on the user's own list, by group. */
function AddReports({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [chosen, setChosen] = useState<ReportName[] | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    api<{ list: ReportName[] }>(GET, {}).then((d) => setChosen(d.list), (e) => {
      setChosen([]);
      toast((e as Error).message, "error");
    });
  }, []);
  const toggle = (name: ReportName, on: boolean) =>
    setChosen((c) => (on ? [...(c ?? []), name] : (c ?? []).filter((n) => n !== name)));
  const save = async () => {
    setSaving(true);
    try {
      await api(SET, { list: chosen ?? [] });
      location.href = "/reportList";
    } catch (e) {
      toast((e as Error).message, "error");
      setSaving(false);
    }
  };
  return (
    <section class="panel rp-add" data-testid="add-reports">
      <p class="muted">{t("reports.list.addIntro")}</p>
      {REPORT_GROUPS.map((g) => {
        const built = g.reports.filter((r) => BUILT.has(r)) as ReportName[];
        if (!built.length) return null;
        return (
          <fieldset key={g.key} class="rp-add-group">
            <legend>{t(`reports.groups.${g.key}`)}</legend>
            {built.map((name) => (
              <label key={name} class="rp-check">
                <input
                  type="checkbox"
                  name="report"
                  value={name}
                  disabled={chosen === null}
                  checked={chosen?.includes(name) ?? false}
                  onChange={(e) => toggle(name, (e.target as HTMLInputElement).checked)}
                />
                {t(`reports.names.${name}`)}
              </label>
            ))}
          </fieldset>
        );
      })}
      <div class="rp-add-foot">
        <a class="btn" href="/reportList">{t("ui.cancel")}</a>
        <button
          type="button"
          class="btn btn-primary"
          id="save-reports"
          disabled={chosen === null || saving}
          onClick={save}
        >
          {t("reports.list.save", { count: chosen?.length ?? 0 })}
        </button>
      </div>
      <Toasts />
    </section>
  );
}

function MyReports({ lang, mode }: { lang: Lang; mode: "list" | "add" }) {
  return mode === "add" ? <AddReports lang={lang} /> : <MyReportList lang={lang} />;
}

export default island("reports/MyReports", MyReports);

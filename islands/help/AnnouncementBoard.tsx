import { useEffect, useState } from "react";
import dayjs from "dayjs";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { AnnouncementForm } from "../../components/help/AnnouncementForm.tsx";
import type { AnnouncementView } from "../../modules/announcements/model.ts";

type Translate = ReturnType<typeof translator>;

/** /announcements: everything received (and, for posters, their own with a form to post). */
function AnnouncementBoard({ lang, canPost }: { lang: Lang; canPost: boolean }) {
  const t = translator(lang);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<{ total: number; list: AnnouncementView[] } | null>(null);
  const [version, setVersion] = useState(0);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError && e.message ? e.message : t("ui.requestFailed"), "error");

  useEffect(() => {
    api<{ total: number; list: AnnouncementView[] }>("/v3/new/announcement/list", page)
      .then(setData, fail);
  }, [page, version]);

  const remove = async (a: AnnouncementView) => {
    if (!confirm(t("help.announcements.confirmDelete", { title: a.title }))) return;
    try {
      await api("/v3/new/announcement/delete", { id: a.id });
      toast(t("help.announcements.deleted_ok"));
      setVersion(version + 1);
    } catch (e) {
      fail(e);
    }
  };

  return (
    <section class="panel help-page announcement-board">
      <div class="panel-title">
        <h1>{t("help.announcements.title")}</h1>
      </div>
      <p class="muted help-intro">
        {t(canPost ? "help.announcements.introPoster" : "help.announcements.intro")}
      </p>
      {canPost && (
        <AnnouncementForm
          t={t}
          onPosted={() => {
            toast(t("help.announcements.posted_ok"));
            setPage(FIRST_PAGE);
            setVersion(version + 1);
          }}
          fail={(e) => refusedField(e) ? undefined : fail(e)}
        />
      )}
      <ul class="ann-list">
        {data?.list.length === 0 && <li class="help-empty">{t("help.announcements.empty")}</li>}
        {data?.list.map((a) => <AnnouncementItem key={a.id} t={t} a={a} onDelete={remove} />)}
      </ul>
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      <Toasts />
    </section>
  );
}

function stateOf(a: AnnouncementView): "active" | "upcoming" | "ended" {
  if (a.active) return "active";
  return new Date(a.startTime) > new Date() ? "upcoming" : "ended";
}

function AnnouncementItem({ t, a, onDelete }: {
  t: Translate;
  a: AnnouncementView;
  onDelete: (a: AnnouncementView) => void;
}) {
  const state = stateOf(a);
  const fmt = (iso: string) => dayjs(iso).format("YYYY-MM-DD HH:mm");
  return (
    <li class={`ann-item ${a.importance} ${state}`} data-announcement-id={a.id}>
      <div class="ann-head">
        <h2>
          {a.importance === "important" && (
            <span class="badge bad">{t("help.announcements.importanceLevels.important")}</span>
          )}
          {a.title}
        </h2>
        <span class={`badge ${state === "active" ? "ok" : ""}`}>
          {t(`help.announcements.states.${state}`)}
        </span>
        {!a.mine && !a.seen && state === "active" && (
          <span class="badge warn">{t("help.announcements.unread")}</span>
        )}
      </div>
      <p class="ann-body">{a.body}</p>
      <div class="ann-meta muted">
        <span>
          {t("help.announcements.period", { start: fmt(a.startTime), end: fmt(a.endTime) })}
        </span>
        <span>
          {a.mine
            ? t("help.announcements.mine")
            : t("help.announcements.from", { account: a.postedBy })}
        </span>
        {a.mine && (
          <button type="button" class="btn btn-danger" onClick={() => onDelete(a)}>
            {t("help.announcements.delete")}
          </button>
        )}
      </div>
    </li>
  );
}

export default island("help/AnnouncementBoard", AnnouncementBoard);

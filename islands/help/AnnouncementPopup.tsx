import { useEffect, useState } from "react";
import dayjs from "dayjs";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import type { AnnouncementView, ShowWindow } from "../../modules/announcements/model.ts";

/** The spec's pop-up window check (console §7), asked once per page. */
const CHECK = "/tsp2/tsp-asset/account/showWindow/";
/** Time for the page's own pop-ups (hydrated in any order) to open first. */
const SETTLE_MS = 1200;

/**
 * In the shell: new announcements are shown once, important ones first; closing the pop-up
 * marks them seen for this user.
 */
function AnnouncementPopup({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [items, setItems] = useState<AnnouncementView[]>([]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    api<ShowWindow>(CHECK).then((r) => {
      if (!r.show) return;
      const important = (a: AnnouncementView) => a.importance === "important" ? 0 : 1;
      const sorted = [...r.announcements].sort((a, b) => important(a) - important(b));
      // One pop-up at a time: after the page's other islands have started, wait until
      // another dialog (the release notes, an alert) is closed.
      const showWhenFree = () => {
        if (document.querySelector(".modal-backdrop")) timer = setTimeout(showWhenFree, 400);
        else setItems(sorted);
      };
      timer = setTimeout(showWhenFree, SETTLE_MS);
    }, () => {/* a failed check shows nothing; the next page asks again */});
    return () => clearTimeout(timer);
  }, []);

  if (!items.length) return null;
  const close = () => {
    const ids = items.map((a) => a.id);
    setItems([]);
    api("/v3/new/announcement/seen", { ids }).catch(() => {});
  };
  const title = items.length === 1
    ? t("help.announcements.popupTitle")
    : t("help.announcements.popupTitleMany", { count: items.length });
  return (
    <Modal
      title={title}
      onClose={close}
      closeLabel={t("ui.close")}
      width={560}
      footer={
        <>
          <a class="btn ann-all" href="/announcements" onClick={close}>
            {t("help.announcements.viewAll")}
          </a>
          <button type="button" class="btn btn-primary" onClick={close}>
            {t("help.announcements.gotIt")}
          </button>
        </>
      }
    >
      <div class="ann-popup">
        {items.map((a) => (
          <article key={a.id} class={`ann-popup-item ${a.importance}`}>
            <h3>
              {a.importance === "important" && (
                <span class="badge bad">{t("help.announcements.importanceLevels.important")}</span>
              )}
              {a.title}
            </h3>
            <p>{a.body}</p>
            <span class="muted">
              {t("help.announcements.from", { account: a.postedBy })} ·{" "}
              {dayjs(a.startTime).format("YYYY-MM-DD HH:mm")}
            </span>
          </article>
        ))}
      </div>
    </Modal>
  );
}

export default island("help/AnnouncementPopup", AnnouncementPopup);

import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import type { translator } from "../../lib/i18n/i18n.ts";
import { toast } from "../ui/Toast.tsx";
import type { CreditsState } from "./credits_state.ts";

type Translate = ReturnType<typeof translator>;
interface Found {
  id: string;
  account: string;
  nickName: string;
}

/** Accounts of the caller's subtree matching what is typed (for the share box's list). */
function useAccountSearch(keyword: string) {
  const [found, setFound] = useState<Found[]>([]);
  useEffect(() => {
    const k = keyword.trim();
    if (!k) return setFound([]);
    const timer = setTimeout(() => {
      api<{ list: Found[] }>("/v3/new/account/children", { keyword: k, pageSize: 10 })
        .then((r) => setFound(r.list), () => setFound([]));
    }, 250);
    return () => clearTimeout(timer);
  }, [keyword]);
  return found;
}

/** The accounts sharing the caller's credit pool: add by login name, stop sharing per row. */
export function SharePanel({ t, s }: { t: Translate; s: CreditsState }) {
  const [keyword, setKeyword] = useState("");
  const found = useAccountSearch(keyword);
  const view = s.view!;
  const submit = async (e: Event) => {
    e.preventDefault();
    const hit = found.find((f) => f.account === keyword.trim());
    if (!hit) return toast(t("credits.share.notFound"), "error");
    if (await s.share(hit.id, hit.account)) setKeyword("");
  };
  return (
    <section class="panel credits-share">
      <div class="panel-title">
        <h2>{t("credits.share.title")}</h2>
        <span class="badge" id="credits-share-count">
          {t("credits.share.count", { n: view.sharedWith.length, max: view.maxShared })}
        </span>
      </div>
      <p class="muted">{t("credits.share.hint", { max: view.maxShared })}</p>
      <form class="toolbar" onSubmit={submit} noValidate>
        <input
          class="input"
          name="shareAccount"
          list="credits-share-accounts"
          aria-label={t("credits.share.account")}
          placeholder={t("credits.share.placeholder")}
          value={keyword}
          maxLength={50}
          onInput={(e) => setKeyword((e.target as HTMLInputElement).value)}
        />
        <datalist id="credits-share-accounts">
          {found.map((f) => <option key={f.id} value={f.account}>{f.nickName}</option>)}
        </datalist>
        <button type="submit" class="btn" id="credits-share" disabled={s.busy || !keyword.trim()}>
          {t("credits.share.submit")}
        </button>
      </form>
      {view.sharedWith.length
        ? (
          <ul class="credits-members">
            {view.sharedWith.map((m) => (
              <li key={m.userId}>
                <span class="grow">
                  <strong>{m.account}</strong> <span class="muted">{m.nickName}</span>
                </span>
                <span class="muted">{m.sharedAt.slice(0, 10)}</span>
                <button
                  type="button"
                  class="link-btn"
                  disabled={s.busy}
                  onClick={() => s.unshare(m.userId, m.account)}
                >
                  {t("credits.share.unshare")}
                </button>
              </li>
            ))}
          </ul>
        )
        : <p class="empty">{t("credits.share.none")}</p>}
    </section>
  );
}

import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import type { translator } from "../../lib/i18n/i18n.ts";
import { FIRST_PAGE, type PageState } from "../ui/Pagination.tsx";
import { toast } from "../ui/Toast.tsx";
import type { CreditLogEntry, CreditsView } from "../../modules/credits/model.ts";
import type { BalanceReminder, BalanceThresholds } from "../../modules/notifications/messages.ts";

type Translate = ReturnType<typeof translator>;

export interface ReminderPrefs {
  balanceReminder: BalanceReminder;
  balanceThresholds?: BalanceThresholds;
}

/**
 * The credits page's data and actions: the balance view, the log's page, the reminder
 * preferences; every change reloads the balance and the log.
 */
export function useCredits(t: Translate) {
  const [view, setView] = useState<CreditsView | null>(null);
  const [log, setLog] = useState<{ total: number; list: CreditLogEntry[] } | null>(null);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [prefs, setPrefs] = useState<ReminderPrefs | null>(null);
  const [busy, setBusy] = useState(false);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");

  const loadView = () => api<CreditsView>("/v3/new/credits/balance", {}).then(setView, fail);
  const loadLog = () =>
    api<{ total: number; list: CreditLogEntry[] }>("/v3/new/credits/log", page).then(
      setLog,
      fail,
    );
  useEffect(() => {
    loadView();
    api<ReminderPrefs>("/v3/new/message/prefs/get", {}).then(setPrefs, fail);
  }, []);
  useEffect(() => {
    loadLog();
  }, [page.pageNum, page.pageSize]);

  /** Runs a change, shows its message, and reloads what it changed. */
  const act = async <T>(run: () => Promise<T>, done: (r: T) => string) => {
    setBusy(true);
    try {
      const r = await run();
      toast(done(r));
      await Promise.all([loadView(), loadLog()]);
      return true;
    } catch (e) {
      fail(e);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    view,
    log,
    page,
    setPage,
    prefs,
    busy,
    buy: (coins: number) =>
      act(
        () => api<{ bought: number; coinsPaid: number }>("/v3/new/credits/buy", { coins }),
        (r) => t("credits.buy.done", { credits: r.bought, coins: r.coinsPaid }),
      ),
    share: (userId: string, account: string) =>
      act(
        () => api("/v3/new/credits/share", { userId }),
        () => t("credits.share.done", { account }),
      ),
    unshare: (userId: string, account: string) =>
      act(
        () => api("/v3/new/credits/unshare", { userId }),
        () => t("credits.share.stopped", { account }),
      ),
    saveReminder: (next: ReminderPrefs) =>
      act(
        async () => setPrefs(await api<ReminderPrefs>("/v3/new/message/prefs/save", next)),
        () => t("ui.saved"),
      ),
    fail,
  };
}

export type CreditsState = ReturnType<typeof useCredits>;

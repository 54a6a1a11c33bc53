import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";

const EQ = "/v3/new/newEquipment";

interface State {
  show: 0 | 1;
  inheritedHidden: boolean;
  editable: boolean;
}

/**
 * showPlatformExpiration of the selected account (spec §3): a superior decides whether the
 * account and its subtree see the platform expiry or a dash.
 */
export function ExpiryVisibility({ t, userId, onChanged }: {
  t: TFunction;
  userId: string;
  onChanged: () => void;
}) {
  const [state, setState] = useState<State | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setState(null);
    api<State>(`${EQ}/getShowPlatformExpiration`, { userId }).then(setState, () => {});
  }, [userId]);
  if (!state?.editable) return null;
  const toggle = async (show: 0 | 1) => {
    // Shown at once (a controlled checkbox would otherwise snap back while saving).
    setState({ ...state, show });
    setBusy(true);
    try {
      await api(`${EQ}/setShowPlatformExpiration`, { userId, show });
      toast(t("devices.expiryVisibility.saved"));
      onChanged();
    } catch (e) {
      setState(state);
      toast((e as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <label class="expiry-visibility" title={t("devices.expiryVisibility.hint")}>
      <input
        type="checkbox"
        id="show-platform-exp"
        checked={state.show === 1}
        disabled={busy}
        onChange={(e) => toggle((e.target as HTMLInputElement).checked ? 1 : 0)}
      />
      {t("devices.expiryVisibility.label")}
      {state.inheritedHidden && (
        <span class="pill warn">{t("devices.expiryVisibility.inherited")}</span>
      )}
    </label>
  );
}

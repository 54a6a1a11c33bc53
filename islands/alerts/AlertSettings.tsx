import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { DeviceThresholds } from "../../components/alerts/DeviceThresholds.tsx";
import { BroadcastRules } from "../../components/alerts/BroadcastRules.tsx";
import { PushSettingsForm } from "../../components/alerts/PushSettingsForm.tsx";
import { createPushSettings, loadPushSettings } from "../../components/alerts/push_settings.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { TabButtons } from "../../components/ui/TabButtons.tsx";

const TABS = ["push", "device", "broadcast"] as const;

/**
 * /settingAlert: push settings of the account, mail with verification, webhook, device
 * thresholds and auto broadcast rules.
 */
function AlertSettings({ lang, root }: { lang: Lang; root: AccountRef }) {
  const t = translator(lang);
  const s = useMemo(() => createPushSettings(t), []);
  const [tab, setTab] = useState<typeof TABS[number]>("push");
  useEffect(() => loadPushSettings(s), []);
  if (!s.settings.value || !s.saved.value) {
    return (
      <div class="panel">
        <p class="table-loading">{t("ui.loading")}</p>
      </div>
    );
  }
  return (
    <div class="panel alert-settings">
      <div class="panel-title">
        <h1>{t("settings.items.settingAlert")}</h1>
      </div>
      <div class="gf-tabs" role="tablist">
        <TabButtons
          tabs={TABS}
          active={tab}
          onSelect={setTab}
          label={(k) => t(`alerts.settings.tabs.${k}`)}
        />
      </div>
      {tab === "device"
        ? <DeviceThresholds t={t} />
        : tab === "broadcast"
        ? <BroadcastRules t={t} root={root} />
        : <PushSettingsForm s={s} />}
      <Toasts />
    </div>
  );
}

export default island("alerts/AlertSettings", AlertSettings);

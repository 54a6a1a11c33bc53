import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { logout, switchLanguage } from "../../lib/client/session.ts";
import { type Lang, LANGUAGES, translator } from "../../lib/i18n/i18n.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import { CURRENT_RELEASE, RELEASES } from "../../app/pages/releases.ts";

interface Props {
  lang: Lang;
  nickName: string;
  account: string;
  mobile: boolean;
}

const SEEN_KEY = "tp_release_seen";

/** Language switch, release-notes pop-up and logout in the top bar. */
function ShellActions({ lang, nickName, account }: Props) {
  const t = translator(lang);
  const [showRelease, setShowRelease] = useState(false);

  useEffect(() => {
    if (localStorage.getItem(SEEN_KEY) !== CURRENT_RELEASE) setShowRelease(true);
  }, []);

  const closeRelease = () => {
    localStorage.setItem(SEEN_KEY, CURRENT_RELEASE);
    setShowRelease(false);
  };

  const release = RELEASES[0];
  return (
    <div class="top-actions">
      <select
        aria-label={t("shell.language")}
        value={lang}
        onChange={(e) => switchLanguage((e.target as HTMLSelectElement).value)}
      >
        {LANGUAGES.map((l) => <option key={l} value={l}>{t(`shell.languages.${l}`)}</option>)}
      </select>
      <div class="user-chip" title={account}>
        <span class="avatar" aria-hidden="true">{nickName.slice(0, 1).toUpperCase()}</span>
        <span class="user-name">{nickName}</span>
        <button type="button" onClick={logout}>{t("shell.logout")}</button>
      </div>
      {showRelease && (
        <Modal
          title={t("release.title", { version: release.version })}
          onClose={closeRelease}
          closeLabel={t("ui.close")}
          footer={
            <button type="button" class="btn btn-primary" onClick={closeRelease}>
              {t("release.gotIt")}
            </button>
          }
        >
          <div class="release-notes" id="release-popup">
            <p class="release-date">{release.date}</p>
            <ul>{release.items.map((k) => <li key={k}>{t(`release.items.${k}`)}</li>)}</ul>
          </div>
        </Modal>
      )}
    </div>
  );
}

export default island("shell/ShellActions", ShellActions);

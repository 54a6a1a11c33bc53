import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";

/** "Back to previous page": history needs the browser, so this one button is an island. */
function BackLink({ lang }: { lang: Lang }) {
  const t = translator(lang);
  return (
    <button
      type="button"
      class="btn"
      onClick={() => (history.length > 1 ? history.back() : (location.href = "/"))}
    >
      {t("pages.notFound.back")}
    </button>
  );
}

export default island("shell/BackLink", BackLink);

import type { TFunction } from "i18next";
import { useState } from "react";
import type { DomainValues } from "./types.ts";
import { previewUrl } from "./types.ts";

const HEX = /^#[0-9a-fA-F]{6}$/;
const safe = (c: string, fallback: string) => (HEX.test(c) ? c : fallback);

/** A small top bar and controls painted in the chosen colours. */
export function Preview({ t, values }: { t: TFunction; values: DomainValues }) {
  const theme = safe(values.themeColor, "#3b7aff");
  const hover = safe(values.hoverColor, "#2f62cc");
  const selected = safe(values.selectedColor, "#e8f0ff");
  const logo = previewUrl(values, "domainLogin");
  // An address that does not load yet (e.g. a resource domain being typed) shows the default mark.
  const [broken, setBroken] = useState("");
  return (
    <figure class="domain-preview" aria-label={t("domains.preview.title")}>
      <figcaption class="field-label">{t("domains.preview.title")}</figcaption>
      <div class="preview-topbar" style={{ background: theme }} data-testid="preview-topbar">
        <span class="preview-brand">
          {logo && logo !== broken
            ? <img src={logo} alt="" onError={() => setBroken(logo)} />
            : <span class="logo-dot" aria-hidden="true">◎</span>}
          <span>{values.domainTitle || t("domains.preview.untitled")}</span>
        </span>
        <span class="preview-nav">
          <span class="active">{t("shell.sections.monitor")}</span>
          <span>{t("shell.sections.accounts")}</span>
        </span>
      </div>
      <div class="preview-body">
        <div class="preview-side">
          <span
            class="preview-item"
            style={{ background: selected, color: theme, borderLeftColor: theme }}
          >
            {t("domains.preview.selected")}
          </span>
          <span class="preview-item">{t("domains.preview.item")}</span>
        </div>
        <div class="preview-buttons">
          <span class="preview-btn" style={{ background: theme }}>
            {t("domains.preview.button")}
          </span>
          <span class="preview-btn" style={{ background: hover }}>
            {t("domains.preview.hover")}
          </span>
        </div>
      </div>
    </figure>
  );
}

import type { ComponentChildren } from "preact";
import type { TFunction } from "i18next";
import type { AccountRef } from "../accounts/types.ts";
import { DevicePicker } from "./DevicePicker.tsx";

/** Title and one-line introduction of a command-area page. */
export function PageHead({ t, page }: { t: TFunction; page: string }) {
  return (
    <header class="cmd-head">
      <h1>{t(`commands.pages.${page}.title`)}</h1>
      <p class="sub">{t(`commands.pages.${page}.intro`)}</p>
    </header>
  );
}

/**
 * The batch pages' shape: the refusal notice when batches are not allowed, device choice on
 * the left, the page's own form (children, under `formTitle`, submitted to `onSubmit`) on the
 * right.
 */
export function BatchLayout(
  { t, allowed, root, imeis, onImeis, maxDevices, error, formTitle, onSubmit, children }: {
    t: TFunction;
    allowed: boolean;
    root: AccountRef;
    imeis: string[];
    onImeis: (imeis: string[]) => void;
    maxDevices: number;
    error?: string;
    formTitle: string;
    onSubmit: (e: Event) => void;
    children: ComponentChildren;
  },
) {
  return (
    <>
      {!allowed && <p class="notice" role="alert">{t("errors.batchSendNotAllowed")}</p>}
      <div class="cmd-grid">
        <section class="panel">
          <h2 class="panel-title">{t("commands.ui.step1")}</h2>
          <DevicePicker t={t} root={root} selected={imeis} onChange={onImeis} max={maxDevices} />
          {error && <p class="field-error" role="alert">{error}</p>}
        </section>
        <form class="panel cmd-form" onSubmit={onSubmit} noValidate>
          <h2 class="panel-title">{formTitle}</h2>
          {children}
        </form>
      </div>
    </>
  );
}

/** The foot of a batch form: how many devices are chosen, and the submit button. */
export function BatchSubmit({ t, count, disabled, busy, label }: {
  t: TFunction;
  count: number;
  disabled: boolean;
  busy: boolean;
  /** The idle button text; "Sending…" while busy. */
  label: string;
}) {
  return (
    <div class="toolbar">
      <span class="field-hint">{t("commands.ui.chosen", { count })}</span>
      <button type="submit" class="btn btn-primary" disabled={disabled || busy}>
        {busy ? t("commands.ui.sending") : label}
      </button>
    </div>
  );
}

/** Edit and delete links of a table row. */
export function RowActions({ t, onEdit, onDelete }: {
  t: TFunction;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <td class="col-actions">
      <button type="button" class="link-btn" onClick={onEdit}>{t("ui.edit")}</button>
      <button type="button" class="link-btn danger" onClick={onDelete}>{t("ui.delete")}</button>
    </td>
  );
}

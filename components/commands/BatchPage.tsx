import type { TFunction } from "i18next";
import { type ReactNode, useState } from "react";
import type { AccountRef } from "../accounts/types.ts";
import { toast, Toasts } from "../ui/Toast.tsx";
import { BatchList } from "./BatchList.tsx";
import { DevicePicker } from "./DevicePicker.tsx";
import { PageHead } from "./PageParts.tsx";
import { SendTypeField } from "./SendFields.tsx";
import { type FieldErrors, type RefusalFields, useSubmit } from "./useSubmit.ts";

type SendType = "online" | "offline";

/** What a sent batch answers (both batch APIs). */
export interface SentBatch {
  batchNo: string;
  deviceCount: number;
}

/**
 * A batch form's state: the chosen devices, send type, replace, errors and busy, and the
 * version of the batch list (bumped by each sent batch so the list reloads).
 */
export function useBatchForm(initial: { sendType: SendType; replace: boolean }) {
  const [imeis, setImeis] = useState<string[]>([]);
  const [sendType, setSendType] = useState<SendType>(initial.sendType);
  const [replace, setReplace] = useState(initial.replace);
  const [version, setVersion] = useState(0);
  const { errors, setErrors, busy, submit } = useSubmit();
  /**
   * Sends once the page's own checks (`found`) pass and devices are chosen: `post` sends the
   * batch, which is announced with its number; then `sent` sees the answer and the list
   * reloads. `refusal` places refusals on fields.
   */
  const send = <R extends SentBatch>(t: TFunction, found: FieldErrors, steps: {
    post: () => Promise<R>;
    sent?: (r: R) => void;
    refusal?: RefusalFields;
  }) => {
    if (!imeis.length) found.devices = t("errors.noDevicesChosen");
    return submit(found, async () => {
      const r = await steps.post();
      toast(t("commands.ui.batchSent", { batchNo: r.batchNo, count: r.deviceCount }));
      steps.sent?.(r);
      setVersion((v) => v + 1);
    }, steps.refusal);
  };
  return {
    imeis,
    setImeis,
    sendType,
    setSendType,
    replace,
    setReplace,
    version,
    errors,
    setErrors,
    busy,
    send,
  };
}

export type BatchForm = ReturnType<typeof useBatchForm>;

/** What differs between the two batch pages: page texts, form title, button, status page. */
const KINDS = {
  command: {
    page: "batchCommand",
    formTitle: "commands.ui.step2",
    submit: "commands.ui.send",
    statusPath: "/commandStatus",
  },
  workMode: {
    page: "batchWorkingMode",
    formTitle: "commands.ui.step2WorkMode",
    submit: "commands.ui.apply",
    statusPath: "/workingModeStatus",
  },
} as const;

/**
 * A batch page of commands or working modes (`kind`, also the category of its batches): head,
 * the refusal notice when batches are not allowed, device choice on the left, the form on the
 * right (the page's fields, send type, `confirm` fields, the submit foot), `after` below them,
 * then the account's batches of that category.
 */
export function BatchPage(props: {
  t: TFunction;
  kind: keyof typeof KINDS;
  allowed: boolean;
  root: AccountRef;
  maxDevices: number;
  form: BatchForm;
  onSubmit: (e: Event) => void;
  /** False while the form has nothing to send (children then stand alone, e.g. an empty state). */
  ready?: boolean;
  /** Fields after the send type (the password confirming a protected instruction). */
  confirm?: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t, allowed, form, ready = true } = props;
  const kind = KINDS[props.kind];
  return (
    <div class="cmd-page">
      <PageHead t={t} page={kind.page} />
      {!allowed && <p class="notice" role="alert">{t("errors.batchSendNotAllowed")}</p>}
      <div class="cmd-grid">
        <section class="panel">
          <h2 class="panel-title">{t("commands.ui.step1")}</h2>
          <DevicePicker
            t={t}
            root={props.root}
            selected={form.imeis}
            onChange={form.setImeis}
            max={props.maxDevices}
          />
          {form.errors.devices && <p class="field-error" role="alert">{form.errors.devices}</p>}
        </section>
        <form class="panel cmd-form" onSubmit={props.onSubmit} noValidate>
          <h2 class="panel-title">{t(kind.formTitle)}</h2>
          {props.children}
          {ready && (
            <>
              <SendTypeField
                t={t}
                sendType={form.sendType}
                onSendType={form.setSendType}
                replace={form.replace}
                onReplace={form.setReplace}
              />
              {props.confirm}
              <div class="toolbar">
                <span class="field-hint">
                  {t("commands.ui.chosen", { count: form.imeis.length })}
                </span>
                <button
                  type="submit"
                  class="btn btn-primary"
                  disabled={!allowed || form.busy}
                >
                  {form.busy ? t("commands.ui.sending") : t(kind.submit)}
                </button>
              </div>
            </>
          )}
        </form>
      </div>
      {props.after}
      <BatchList
        t={t}
        category={props.kind}
        version={form.version}
        statusHref={(b) => `${kind.statusPath}?batchNo=${encodeURIComponent(b)}`}
      />
      <Toasts />
    </div>
  );
}

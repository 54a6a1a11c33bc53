import type { TFunction } from "i18next";
import { type ReactNode, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { AccountTree } from "../accounts/AccountTree.tsx";
import type { AccountRef } from "../accounts/types.ts";
import { useAction } from "./useAction.ts";

const EQ = "/v3/new/newEquipment";

/** Modal with Cancel + one primary action, a refusal box and a busy state. */
export function ActionModal(p: {
  t: TFunction;
  title: string;
  submitId: string;
  submitLabel: string;
  busy: boolean;
  error: string;
  disabled?: boolean;
  /** The action is over (its result is shown): only a Close button remains. */
  finished?: boolean;
  width?: number;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={p.title}
      onClose={p.onClose}
      closeLabel={p.t("devices.detail.close")}
      width={p.width}
      footer={p.finished
        ? (
          <button
            type="button"
            class="btn btn-primary"
            id={`${p.submitId}-close`}
            onClick={p.onClose}
          >
            {p.t("devices.detail.close")}
          </button>
        )
        : (
          <>
            <button type="button" class="btn" onClick={p.onClose}>
              {p.t("devices.detail.cancel")}
            </button>
            <button
              type="button"
              id={p.submitId}
              class="btn btn-primary"
              disabled={p.busy || p.disabled}
              onClick={p.onSubmit}
            >
              {p.busy ? p.t("ui.loading") : p.submitLabel}
            </button>
          </>
        )}
    >
      {p.error && <div class="form-error" role="alert">{p.error}</div>}
      {p.children}
    </Modal>
  );
}

interface TransferProps {
  t: TFunction;
  root: AccountRef;
  imeis: string[];
  onClose: () => void;
  onDone: () => void;
}

/** Sell / transfer: the target is picked in the caller's own account tree. */
export function TransferDialog({ t, root, imeis, onClose, onDone }: TransferProps) {
  const [target, setTarget] = useState<AccountRef | null>(null);
  const a = useAction();
  return (
    <ActionModal
      t={t}
      title={t("devices.transfer.title", { count: imeis.length })}
      submitId="transfer-submit"
      submitLabel={t("devices.transfer.submit")}
      busy={a.busy}
      error={a.error}
      disabled={!target}
      width={560}
      onClose={onClose}
      onSubmit={() =>
        a.run(async () => {
          const r = await api<{ moved: number }>(`${EQ}/transferEquipment`, {
            imeis,
            targetUserId: target!.id,
          });
          toast(t("devices.transfer.moved", { count: r.moved }));
          onDone();
        })}
    >
      <p class="dialog-note">
        {t("devices.transfer.target")}:{" "}
        <strong id="transfer-target">
          {target ? `${target.nickName} (${target.account})` : t("devices.transfer.chooseTarget")}
        </strong>
      </p>
      <div class="picker-tree">
        <AccountTree
          t={t}
          root={root}
          selectedId={target?.id ?? ""}
          onSelect={setTarget}
          version={0}
        />
      </div>
    </ActionModal>
  );
}

interface ExpiryProps {
  t: TFunction;
  kind: "user" | "platform";
  imeis: string[];
  onClose: () => void;
  onDone: () => void;
}

/** User expiry (rules of spec §5, checked by the server) or the administrator's platform term. */
export function ExpiryDialog({ t, kind, imeis, onClose, onDone }: ExpiryProps) {
  const [date, setDate] = useState("");
  const a = useAction();
  const max = new Date();
  max.setFullYear(max.getFullYear() + 10);
  return (
    <ActionModal
      t={t}
      title={t(`devices.expiry.${kind}Title`, { count: imeis.length })}
      submitId="expiry-submit"
      submitLabel={t("devices.detail.save")}
      busy={a.busy}
      error={a.error}
      disabled={!date}
      onClose={onClose}
      onSubmit={() =>
        a.run(async () => {
          await api(
            `${EQ}/${kind === "user" ? "updateUserExpiration" : "updatePlatformExpiration"}`,
            kind === "user" ? { imeis, userExpiration: date } : { imeis, expiration: date },
          );
          toast(t("devices.actions.done"));
          onDone();
        })}
    >
      <label class="field">
        <span class="field-label">
          <i class="req">*</i>
          {t("devices.expiry.date")}
        </span>
        <input
          id="expiry-date"
          type="date"
          value={date}
          max={kind === "platform" ? max.toISOString().slice(0, 10) : undefined}
          onInput={(e) => setDate((e.target as HTMLInputElement).value)}
        />
        <span class="field-hint">{t(`devices.expiry.${kind}Hint`)}</span>
      </label>
    </ActionModal>
  );
}

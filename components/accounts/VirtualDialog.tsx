import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { DeleteDialog } from "./DeleteDialog.tsx";
import { FlagChecks, FormDialog, Input, NewPasswordFields, useForm } from "./form.tsx";
import { useLatest } from "./hooks.ts";
import { formatDateTime, SCOPE_FLAGS, type VirtualRow, type VirtualScope } from "./types.ts";
import { RULES, sameAs } from "./validate.ts";

interface Props {
  t: TFunction;
  onClose: () => void;
}

type View = { mode: "list" } | { mode: "form"; row: VirtualRow | null } | {
  mode: "delete";
  row: VirtualRow;
};

/** The caller's virtual accounts: list, add, edit scope and expiry, delete. */
export function VirtualDialog({ t, onClose }: Props) {
  const [view, setView] = useState<View>({ mode: "list" });
  const [version, setVersion] = useState(0);
  const { data, loading } = useLatest(
    () => api<VirtualRow[]>("/v3/new/account/virtual/list", {}),
    [version],
    (e) => toast((e as Error).message, "error"),
  );
  const back = () => setView({ mode: "list" });
  const changed = () => {
    setVersion((v) => v + 1);
    back();
  };

  if (view.mode === "form") {
    return <VirtualForm t={t} row={view.row} onClose={back} onDone={changed} />;
  }
  if (view.mode === "delete") {
    const { row } = view;
    return (
      <DeleteDialog
        t={t}
        title={t("accounts.virtual.deleteTitle")}
        message={t("accounts.virtual.deleteConfirm", { account: row.account })}
        remove={() => api("/v3/new/account/virtual/delete", { id: row.id })}
        done={t("accounts.toast.deleted", { account: row.account })}
        onClose={back}
        onDone={changed}
      />
    );
  }
  const rows = data ?? [];
  return (
    <Modal
      title={t("accounts.virtual.title")}
      onClose={onClose}
      closeLabel={t("ui.close")}
      width={820}
      footer={<button type="button" class="btn" onClick={onClose}>{t("ui.close")}</button>}
    >
      <div class="toolbar">
        <p class="dialog-note grow">{t("accounts.virtual.intro")}</p>
        <button
          type="button"
          id="virtual-add"
          class="btn btn-primary"
          onClick={() => setView({ mode: "form", row: null })}
        >
          {t("accounts.virtual.add")}
        </button>
      </div>
      <div class="table-wrap">
        <table class="data">
          <thead>
            <tr>
              <th>{t("accounts.fields.account")}</th>
              <th>{t("accounts.fields.nickName")}</th>
              <th>{t("accounts.virtual.scope")}</th>
              <th>{t("accounts.fields.expiration")}</th>
              <th>{t("accounts.fields.createdAt")}</th>
              <th>{t("ui.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-account={r.account}>
                <td class="strong">{r.account}</td>
                <td>{r.nickName}</td>
                <td>
                  {SCOPE_FLAGS.filter((f) => r.scope[f] === 1).map((f) => (
                    <span key={f} class="badge ok scope-badge">
                      {t(`accounts.virtual.scopes.${f}`)}
                    </span>
                  ))}
                  {SCOPE_FLAGS.every((f) => r.scope[f] !== 1) && (
                    <span class="badge">{t("accounts.virtual.viewOnly")}</span>
                  )}
                </td>
                <td>{r.expiration ?? t("accounts.table.never")}</td>
                <td>{formatDateTime(r.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    class="link-btn"
                    data-action="edit"
                    onClick={() => setView({ mode: "form", row: r })}
                  >
                    {t("accounts.actions.edit")}
                  </button>
                  <button
                    type="button"
                    class="link-btn danger"
                    data-action="delete"
                    onClick={() => setView({ mode: "delete", row: r })}
                  >
                    {t("accounts.actions.delete")}
                  </button>
                </td>
              </tr>
            ))}
            {!rows.length && (
              <tr>
                <td colSpan={6}>
                  <div class="empty">{loading ? t("ui.loading") : t("accounts.virtual.empty")}</div>
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}

interface FormProps {
  t: TFunction;
  row: VirtualRow | null;
  onClose: () => void;
  onDone: () => void;
}

function VirtualForm({ t, row, onClose, onDone }: FormProps) {
  const form = useForm({
    account: row?.account ?? "",
    nickName: row?.nickName ?? "",
    password: "",
    confirmPassword: "",
    expiration: row?.expiration ?? "",
  }, t);
  const [scope, setScope] = useState<VirtualScope>(
    row?.scope ?? { instructionsFlag: 0, updateFlag: 0, videoFlag: 0 },
  );
  const label = (k: string) => t(`accounts.fields.${k}`);
  const labels = {
    account: label("account"),
    nickName: label("nickName"),
    password: label("password"),
    confirmPassword: label("confirmPassword"),
    expiration: label("expiration"),
  };
  const v = form.values;
  const save = async () => {
    if (row) {
      await api("/v3/new/account/virtual/update", {
        id: row.id,
        nickName: v.nickName.trim(),
        scope,
        ...(v.expiration !== (row.expiration ?? "") ? { expiration: v.expiration || null } : {}),
      });
      toast(t("accounts.toast.updated", { account: row.account }));
    } else {
      await api("/v3/new/account/virtual/add", {
        account: v.account.trim(),
        nickName: v.nickName.trim(),
        password: v.password,
        scope,
        ...(v.expiration ? { expiration: v.expiration } : {}),
      });
      toast(t("accounts.toast.added", { account: v.account.trim() }));
    }
    onDone();
  };
  const rules = row ? { nickName: RULES.nickName, expiration: RULES.expiration } : {
    account: RULES.virtualAccount,
    nickName: RULES.nickName,
    password: RULES.password,
    confirmPassword: [sameAs(() => form.values.password)],
    expiration: RULES.expiration,
  };
  return (
    <FormDialog
      t={t}
      title={row ? t("accounts.virtual.edit", { account: row.account }) : t("accounts.virtual.add")}
      width={640}
      busy={form.busy}
      formError={form.formError}
      onClose={onClose}
      onSubmit={() => form.submit(rules, labels, save)}
    >
      <div class="form-grid">
        <Input
          form={form}
          name="account"
          label={labels.account}
          required={!row}
          disabled={!!row}
          maxLength={30}
          hint={row ? undefined : t("accounts.virtual.accountHint")}
        />
        <Input form={form} name="nickName" label={labels.nickName} required maxLength={25} />
        {!row && <NewPasswordFields form={form} labels={labels} />}
        <Input
          form={form}
          name="expiration"
          kind="date"
          label={labels.expiration}
          hint={t(row ? "accounts.form.expiryHintEdit" : "accounts.virtual.expiryHint")}
        />
      </div>
      <FlagChecks
        legend={t("accounts.virtual.scope")}
        keys={SCOPE_FLAGS}
        label={(k) => t(`accounts.virtual.scopes.${k}`)}
        checked={scope}
        onChange={setScope}
      />
    </FormDialog>
  );
}

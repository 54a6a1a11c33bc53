import type { TFunction } from "i18next";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { FormDialog, NewPasswordFields, useForm } from "./form.tsx";
import type { AccountRow } from "./types.ts";
import { RULES, sameAs } from "./validate.ts";

interface Props {
  t: TFunction;
  row: AccountRow;
  onClose: () => void;
  onDone: () => void;
}

/** A superior sets a new password for a sub-account (its sessions end). */
export function PasswordDialog({ t, row, onClose, onDone }: Props) {
  const form = useForm({ password: "", confirmPassword: "" }, t);
  const labels = {
    password: t("accounts.fields.newPassword"),
    confirmPassword: t("accounts.fields.confirmPassword"),
  };
  return (
    <FormDialog
      t={t}
      title={t("accounts.dialogs.reset", { account: row.account })}
      busy={form.busy}
      formError={form.formError}
      onClose={onClose}
      onSubmit={() =>
        form.submit(
          { password: RULES.password, confirmPassword: [sameAs(() => form.values.password)] },
          labels,
          async () => {
            await api("/v3/new/account/resetPassword", { id: row.id, ...form.values });
            toast(t("accounts.toast.passwordReset", { account: row.account }));
            onDone();
          },
        )}
    >
      <p class="dialog-note">{t("accounts.form.resetNote")}</p>
      <NewPasswordFields form={form} labels={labels} />
    </FormDialog>
  );
}

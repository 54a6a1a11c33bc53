import type { TFunction } from "i18next";
import { useState } from "react";
import { ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { FormDialog } from "./form.tsx";

interface Props {
  t: TFunction;
  title: string;
  message: string;
  /** Runs the deletion; its refusal is shown in the dialog. */
  remove: () => Promise<void>;
  done: string;
  onClose: () => void;
  onDone: () => void;
}

/** "Delete X? This cannot be undone." with the server's refusal shown in place. */
export function DeleteDialog({ t, title, message, remove, done, onClose, onDone }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  return (
    <FormDialog
      t={t}
      title={title}
      danger
      submitLabel={t("ui.delete")}
      busy={busy}
      formError={error}
      width={440}
      onClose={onClose}
      onSubmit={async () => {
        setBusy(true);
        setError("");
        try {
          await remove();
          toast(done);
          onDone();
        } catch (e) {
          setError(e instanceof ApiError && e.message ? e.message : t("ui.requestError"));
        } finally {
          setBusy(false);
        }
      }}
    >
      <p class="confirm-text">{message}</p>
    </FormDialog>
  );
}

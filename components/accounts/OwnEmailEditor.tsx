import { useState } from "react";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import type { translator } from "../../lib/i18n/i18n.ts";
import { Field } from "../ui/Field.tsx";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";

type Translate = ReturnType<typeof translator>;

/**
 * The user's own e-mail on /myProfile: shown, and changed through a dialog that mails a code
 * to the new address and sets it once the code is entered (modules/ownemail).
 */
export function OwnEmailEditor({ t, email, canChange }: {
  t: Translate;
  email: string;
  canChange: boolean;
}) {
  const [current, setCurrent] = useState(email);
  const [open, setOpen] = useState(false);
  return (
    <>
      <span id="profile-email">{current || "—"}</span>
      {canChange && (
        <button
          type="button"
          class="link-btn own-email-change"
          id="own-email-change"
          onClick={() => setOpen(true)}
        >
          {t("demo.ownEmail.change")}
        </button>
      )}
      {open && (
        <EmailDialog
          t={t}
          onClose={() => setOpen(false)}
          onDone={(next) => {
            setCurrent(next);
            setOpen(false);
            toast(t("demo.ownEmail.done", { email: next }));
          }}
        />
      )}
    </>
  );
}

function EmailDialog({ t, onClose, onDone }: {
  t: Translate;
  onClose: () => void;
  onDone: (email: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
      setErrors({});
    } catch (e) {
      const field = refusedField(e) ??
        (e instanceof ApiError && e.code === 40010 ? "code" : "form");
      setErrors({ [field]: e instanceof ApiError ? e.message : t("ui.requestFailed") });
    } finally {
      setBusy(false);
    }
  };
  const send = () =>
    run(async () => {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
        throw new ApiError(t("validation.format.email"), 49004, { field: "email" });
      }
      await api("/v3/new/myEmail/sendCode", { email: email.trim() });
      setSent(true);
    });
  const confirm = () =>
    run(async () => {
      const r = await api<{ email: string }>("/v3/new/myEmail/confirm", {
        email: email.trim(),
        code: code.trim(),
      });
      onDone(r.email);
    });
  return (
    <Modal
      title={t("demo.ownEmail.title")}
      onClose={onClose}
      closeLabel={t("ui.close")}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.cancel")}</button>
          {sent && (
            <button
              type="button"
              class="btn btn-primary"
              id="own-email-confirm"
              disabled={busy || !/^\d{6}$/.test(code.trim())}
              onClick={confirm}
            >
              {t("demo.ownEmail.confirm")}
            </button>
          )}
        </>
      }
    >
      <p class="muted">{t("demo.ownEmail.intro")}</p>
      {errors.form && <p class="form-error" role="alert">{errors.form}</p>}
      <Field label={t("demo.ownEmail.newEmail")} error={errors.email}>
        <div class="own-email-row">
          <input
            name="newEmail"
            type="email"
            maxLength={100}
            value={email}
            disabled={sent}
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
          />
          <button
            type="button"
            class="btn"
            id="own-email-send"
            disabled={busy || !email.trim()}
            onClick={send}
          >
            {sent ? t("demo.ownEmail.resend") : t("demo.ownEmail.send")}
          </button>
        </div>
      </Field>
      {sent && (
        <>
          <p class="notice">{t("demo.ownEmail.sent", { email: email.trim() })}</p>
          <Field label={t("demo.ownEmail.code")} error={errors.code}>
            <input
              name="emailCode"
              inputMode="numeric"
              autocomplete="one-time-code"
              maxLength={6}
              value={code}
              onInput={(e) => setCode((e.target as HTMLInputElement).value)}
            />
          </Field>
        </>
      )}
    </Modal>
  );
}

import type { TFunction } from "i18next";
import { Field } from "../ui/Field.tsx";
import { codeRefusal, type FieldErrors } from "./useSubmit.ts";

type SendType = "online" | "offline";

/** Online or offline, and (offline) whether to replace a pending offline command. */
export function SendTypeField({ t, sendType, onSendType, replace, onReplace }: {
  t: TFunction;
  sendType: SendType;
  onSendType: (v: SendType) => void;
  replace?: boolean;
  /** Leave out to hide the replace option (the dialog asks instead). */
  onReplace?: (v: boolean) => void;
}) {
  return (
    <>
      <Field
        label={t("commands.columns.sendType")}
        hint={t(`commands.ui.sendTypeHint.${sendType}`)}
      >
        <div class="cmd-radios">
          {(["online", "offline"] as const).map((k) => (
            <label key={k}>
              <input
                type="radio"
                name="sendType"
                value={k}
                checked={sendType === k}
                onChange={() => onSendType(k)}
              />
              {t(`commands.sendTypes.${k}`)}
            </label>
          ))}
        </div>
      </Field>
      {onReplace && sendType === "offline" && (
        <label class="toggle">
          <input
            type="checkbox"
            name="replace"
            checked={replace}
            onChange={(e) => onReplace((e.target as HTMLInputElement).checked)}
          />
          {t("commands.ui.replacePending")}
        </label>
      )}
    </>
  );
}

/**
 * The login password confirming a protected instruction: shown when the chosen instruction
 * is `needed`-protected for the chosen devices' models, and also once the server refused a
 * send for it (`error`) — free text that is a protected instruction (`DYD,000000#` as a
 * custom command) is only recognised there, per device model. It stays while a password is
 * typed (a new try clears the refusal). Single and batch sends alike.
 */
export function PasswordField({ t, needed, value, error, onInput }: {
  t: TFunction;
  needed: boolean;
  value: string;
  error?: string;
  onInput: (v: string) => void;
}) {
  if (!needed && !error && !value) return null;
  return (
    <Field
      label={t("commands.params.password")}
      required
      error={error}
      hint={t("commands.ui.passwordHint")}
    >
      <input
        class="input"
        type="password"
        name="password"
        autocomplete="current-password"
        value={value}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
    </Field>
  );
}

/** The request's password: whenever one is needed or was typed (after a refusal). */
export function passwordBody(needed: boolean, password: string): { password?: string } {
  return needed || password ? { password } : {};
}

/**
 * A refusal of the login password, on its field: wrong or missing (43003), or too many
 * wrong passwords for the account lately (40028, issue 14).
 */
export function passwordRefusal(err: unknown): FieldErrors | null {
  return codeRefusal(err, 43003, "password") ?? codeRefusal(err, 40028, "password");
}

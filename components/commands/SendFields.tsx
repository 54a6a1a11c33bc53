import type { TFunction } from "i18next";
import { Field } from "../ui/Field.tsx";

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

/** The login password confirming a protected instruction. */
export function PasswordField({ t, value, error, onInput }: {
  t: TFunction;
  value: string;
  error?: string;
  onInput: (v: string) => void;
}) {
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

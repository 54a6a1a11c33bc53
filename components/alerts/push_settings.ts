/**
 * State of the push settings form on /settingAlert (console, mail with verification, webhook),
 * shared by its sections as signals; created per island instance.
 */
import { type Signal, signal } from "@preact/signals";
import type { TFunction } from "i18next";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import type { AccountAlertSettings } from "../../modules/alerts/schemas.ts";

export interface PushSettingsState {
  t: TFunction;
  /** The settings being edited (null until loaded). */
  settings: Signal<AccountAlertSettings | null>;
  /** The settings as last saved (a changed mail address asks for verification). */
  saved: Signal<AccountAlertSettings | null>;
  code: Signal<string>;
  verified: Signal<boolean>;
  errors: Signal<Record<string, string>>;
}

export function createPushSettings(t: TFunction): PushSettingsState {
  return {
    t,
    settings: signal(null),
    saved: signal(null),
    code: signal(""),
    verified: signal(false),
    errors: signal({}),
  };
}

/** Changes part of the settings being edited. */
export function edit(s: PushSettingsState, patch: Partial<AccountAlertSettings>) {
  s.settings.value = { ...s.settings.value!, ...patch };
}

const failText = (s: PushSettingsState, e: unknown) =>
  e instanceof ApiError ? e.message : s.t("ui.requestFailed");

/** Stores settings from the server (without the account id it adds). */
function keep(s: PushSettingsState, x: AccountAlertSettings) {
  const { userId: _u, ...rest } = x as AccountAlertSettings & { userId: string };
  s.settings.value = rest;
  s.saved.value = rest;
}

export function loadPushSettings(s: PushSettingsState) {
  api<AccountAlertSettings>("/v3/new/alarm/settings/get", {}).then((x) => keep(s, x)).catch(
    (e) => toast(failText(s, e), "error"),
  );
}

/** The mail address differs from the saved one (it must be verified). */
export function newAddress(s: PushSettingsState): boolean {
  const address = s.settings.value!.email.address;
  return !!address && address.toLowerCase() !== s.saved.value!.email.address.toLowerCase();
}

export async function sendCode(s: PushSettingsState) {
  const email = s.settings.peek()!.email.address;
  try {
    await api("/v3/new/alarm/email/sendCode", { email });
    toast(s.t("alerts.settings.codeSent", { email }));
  } catch (e) {
    s.errors.value = { email: failText(s, e) };
  }
}

export async function verify(s: PushSettingsState) {
  try {
    await api("/v3/new/alarm/email/verify", {
      email: s.settings.peek()!.email.address,
      code: s.code.peek().trim(),
    });
    s.verified.value = true;
    s.errors.value = {};
    toast(s.t("errors.emailVerifySucceeded"));
  } catch (e) {
    s.errors.value = { code: failText(s, e) };
  }
}

export async function save(s: PushSettingsState, e: Event) {
  e.preventDefault();
  try {
    const r = await api<AccountAlertSettings & { userId: string }>(
      "/v3/new/alarm/settings/save",
      s.settings.peek(),
    );
    keep(s, r);
    s.verified.value = false;
    s.code.value = "";
    s.errors.value = {};
    toast(s.t("ui.saved"));
  } catch (err) {
    // A refusal naming the mail or webhook shows under it; anything else under the form.
    const field = err instanceof ApiError
      ? String((err.data as { field?: string } | null)?.field ?? "")
      : "";
    const where = field.startsWith("email") || (err as ApiError).code === 46001
      ? "email"
      : field.startsWith("webhook")
      ? "webhook"
      : field.startsWith("sms")
      ? "sms"
      : "form";
    s.errors.value = { [where]: failText(s, err) };
  }
}

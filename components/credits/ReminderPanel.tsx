import { useEffect, useState } from "react";
import type { translator } from "../../lib/i18n/i18n.ts";
import {
  BALANCE_REMINDERS,
  type BalanceReminder,
  type BalanceThresholds,
} from "../../modules/notifications/messages.ts";
import { Field } from "../ui/Field.tsx";
import type { CreditsState } from "./credits_state.ts";

type Translate = ReturnType<typeof translator>;
const KEYS = ["coins", "cards", "credits"] as const;

const toText = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));
const toLevel = (s: string, whole: boolean) => {
  if (!s.trim()) return null;
  const n = Number(s);
  return whole ? Math.max(0, Math.floor(n)) : Math.max(0, Math.round(n * 100) / 100);
};

/** How often, and under which levels of Mi coins, cards and credits, the user is reminded. */
export function ReminderPanel({ t, s }: { t: Translate; s: CreditsState }) {
  const [cadence, setCadence] = useState<BalanceReminder>("weekly");
  const [levels, setLevels] = useState<Record<(typeof KEYS)[number], string>>({
    coins: "",
    cards: "",
    credits: "",
  });
  useEffect(() => {
    if (!s.prefs) return;
    setCadence(s.prefs.balanceReminder);
    const th = s.prefs.balanceThresholds;
    setLevels({ coins: toText(th?.coins), cards: toText(th?.cards), credits: toText(th?.credits) });
  }, [s.prefs]);
  const submit = (e: Event) => {
    e.preventDefault();
    const balanceThresholds: BalanceThresholds = {
      coins: toLevel(levels.coins, false),
      cards: toLevel(levels.cards, true),
      credits: toLevel(levels.credits, true),
    };
    s.saveReminder({ balanceReminder: cadence, balanceThresholds });
  };
  return (
    <form class="panel credits-reminder" onSubmit={submit} noValidate>
      <h2>{t("credits.reminder.title")}</h2>
      <p class="muted">{t("credits.reminder.hint")}</p>
      <div class="form-grid">
        <Field label={t("credits.reminder.cadence")}>
          <select
            name="balanceReminder"
            value={cadence}
            onChange={(e) => setCadence((e.target as HTMLSelectElement).value as BalanceReminder)}
          >
            {BALANCE_REMINDERS.map((r) => (
              <option key={r} value={r}>{t(`alerts.messages.reminders.${r}`)}</option>
            ))}
          </select>
        </Field>
        {KEYS.map((k) => (
          <Field key={k} label={t(`credits.reminder.${k}`)}>
            <input
              name={`threshold-${k}`}
              type="number"
              min="0"
              step={k === "coins" ? "0.01" : "1"}
              inputMode="decimal"
              value={levels[k]}
              onInput={(e) => setLevels({ ...levels, [k]: (e.target as HTMLInputElement).value })}
            />
          </Field>
        ))}
      </div>
      <button type="submit" class="btn btn-primary" id="credits-reminder-save" disabled={s.busy}>
        {t("credits.reminder.save")}
      </button>
    </form>
  );
}

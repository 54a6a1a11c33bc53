import type { TFunction } from "i18next";
import { ResultCounts } from "./ResultCounts.tsx";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { useLatest } from "../accounts/hooks.ts";
import { ActionModal } from "./ActionDialogs.tsx";
import { useAction } from "./useAction.ts";
import type { DeviceRenewal } from "../../modules/devices/renewal.ts";

const EQ = "/v3/new/newEquipment";
const TERMS = [3, 6, 12, 120] as const;
const CARDS = ["3m", "6m", "1y", "10y", "point"] as const;

type Quote = Awaited<ReturnType<DeviceRenewal["quote"]>>;
type Line = Quote["plans"][number] & { reason: string };
type Outcome = { renewed: number; results: Line[]; balance: Quote["balance"] };

interface Props {
  t: TFunction;
  imeis: string[];
  onClose: () => void;
  onDone: () => void;
}

/**
 * Renew the ticked devices: term and payment (recharge cards or Mi coins), a quote per device
 * with its new platform expiry and cost before confirming, then the result per device.
 */
export function RenewDialog({ t, imeis, onClose, onDone }: Props) {
  const [term, setTerm] = useState<typeof TERMS[number]>(12);
  const [payWith, setPayWith] = useState<"card" | "coin" | "point">("card");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [auto, setAuto] = useState(false);
  const a = useAction();
  const { data: quote, loading } = useLatest(
    () => api<Quote & { plans: Line[] }>(`${EQ}/renewQuote`, { imeis, term, payWith }),
    [term, payWith],
    (e) => a.setError((e as Error).message),
  );
  const balance = outcome?.balance ?? quote?.balance;
  const short = !!quote && !quote.balance.unlimited &&
    (payWith !== "coin"
      ? quote.total.cards > quote.balance.cards[quote.total.card]
      : quote.total.coins > quote.balance.coins);
  const payable = !!quote && quote.plans.some((p) => p.ok);
  const submit = () =>
    a.run(async () => {
      const r = await api<Outcome>(`${EQ}/renewEquipment`, { imeis, term, payWith });
      const renewed = r.results.filter((x) => x.ok).map((x) => x.imei);
      if (auto && renewed.length) {
        await api(`${EQ}/setAutoRenew`, { imeis: renewed, autoRenew: { term, payWith } });
      }
      setOutcome(r);
      toast(t("devices.renew.renewed", { count: r.renewed }));
      onDone();
    });
  return (
    <ActionModal
      t={t}
      title={t("devices.renew.title", { count: imeis.length })}
      submitId="renew-submit"
      submitLabel={t("devices.renew.submit")}
      busy={a.busy}
      error={a.error}
      disabled={loading || !payable || short}
      finished={!!outcome}
      width={820}
      onClose={onClose}
      onSubmit={submit}
    >
      {balance && (
        <p class="renew-balance" id="renew-balance">
          <span>{t("devices.renew.balance")}:</span>
          {balance.unlimited ? <strong>{t("devices.renew.unlimited")}</strong> : (
            <>
              <span class="pill info">{t("devices.renew.coins", { count: balance.coins })}</span>
              {CARDS.map((c) => (
                <span key={c} class="pill" data-card={c}>
                  {t(`devices.renew.card.${c}`)} × {balance.cards[c]}
                </span>
              ))}
            </>
          )}
        </p>
      )}
      {!outcome && (
        <div class="renew-options">
          <ChoiceRow
            name="renew-term"
            legend={t("devices.renew.term")}
            options={TERMS.map((m) => [m, t(`devices.renew.terms.${m}`)])}
            value={term}
            onChange={setTerm}
          />
          <ChoiceRow
            name="renew-pay"
            legend={t("devices.renew.payWith")}
            options={(["card", "point", "coin"] as const).map((
              p,
            ) => [p, t(`devices.renew.pay.${p}`)])}
            value={payWith}
            onChange={setPayWith}
          />
        </div>
      )}
      {outcome
        ? <RenewLines t={t} lines={outcome.results} hidden={!!quote?.hidden} result />
        : (
          <div class={`table-wrap result-wrap${loading ? " is-loading" : ""}`}>
            {quote
              ? <RenewLines t={t} lines={quote.plans} hidden={quote.hidden} />
              : <p class="empty">{t("ui.loading")}</p>}
          </div>
        )}
      {!outcome && (
        <label class="renew-auto">
          <input
            type="checkbox"
            id="renew-auto"
            checked={auto}
            onChange={(e) => setAuto((e.target as HTMLInputElement).checked)}
          />
          {t("devices.renew.auto")}
        </label>
      )}
      {quote && !outcome && (
        <p class={`renew-total${short ? " bad-text" : ""}`} id="renew-total">
          {t("devices.renew.total")}:{" "}
          <strong>
            {payWith !== "coin"
              ? `${t(`devices.renew.card.${quote.total.card}`)} × ${quote.total.cards}`
              : t("devices.renew.coins", { count: quote.total.coins })}
          </strong>
          {short && <>— {t(`devices.renew.short.${payWith}`)}</>}
        </p>
      )}
    </ActionModal>
  );
}

/** One choice among a few, as a row of radio buttons (ids: `${name}-${value}`). */
function ChoiceRow<T extends string | number>({ name, legend, options, value, onChange }: {
  name: string;
  legend: string;
  options: [T, string][];
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset class="choice-row">
      <legend>{legend}</legend>
      {options.map(([v, label]) => (
        <label key={v} class={`choice${value === v ? " on" : ""}`}>
          <input
            type="radio"
            name={name}
            id={`${name}-${v}`}
            checked={value === v}
            onChange={() => onChange(v)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** Quote or result lines: refused devices first, each with its reason. */
function RenewLines({ t, lines, hidden, result }: {
  t: TFunction;
  lines: Line[];
  hidden: boolean;
  result?: boolean;
}) {
  const ok = lines.filter((l) => l.ok).length;
  const date = (d: string | null) => (hidden || !d ? "—" : d);
  return (
    <div id={result ? "renew-result" : "renew-quote"}>
      {result && <ResultCounts t={t} okKey="devices.renew.okCount" ok={ok} total={lines.length} />}
      <table class="data">
        <thead>
          <tr>
            <th>{t("devices.col.imei")}</th>
            <th>{t("devices.col.deviceName")}</th>
            <th>{t("devices.col.expiration")}</th>
            <th>{t("devices.renew.newExpiry")}</th>
            <th>{t("devices.renew.cost")}</th>
            <th>{t("devices.renew.state")}</th>
          </tr>
        </thead>
        <tbody>
          {[...lines].sort((a, b) => Number(a.ok) - Number(b.ok)).map((l) => (
            <tr key={l.imei} class={l.ok ? "" : "row-bad"} data-renew={l.ok ? "ok" : "failed"}>
              <td class="mono">{l.imei}</td>
              <td>{l.deviceName || "—"}</td>
              <td>{date(l.expiration)}</td>
              <td>{date(l.newExpiration)}</td>
              <td>
                {!l.ok
                  ? "—"
                  : l.card
                  ? `${t(`devices.renew.card.${l.card}`)} × ${l.cards ?? 1}`
                  : t("devices.renew.coins", { count: l.coins })}
              </td>
              <td>
                {l.ok
                  ? (
                    <span class="ok-text">
                      ✓ {result ? t("devices.renew.done") : t("devices.renew.ready")}
                    </span>
                  )
                  : <span class="bad-text">{l.reason}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

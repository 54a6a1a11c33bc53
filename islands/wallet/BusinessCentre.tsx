import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { Modal } from "../../components/ui/Modal.tsx";
import { BalanceStrip } from "../../components/wallet/BalanceStrip.tsx";
import { PackageForm } from "../../components/wallet/PackageForm.tsx";
import { PackageTable } from "../../components/wallet/PackageTable.tsx";
import {
  CARD_TYPES,
  coinText,
  type PackageRow,
  type ShellBalance,
  type WalletMe,
} from "../../components/wallet/types.ts";

interface Lists {
  canOffer: boolean;
  own: PackageRow[];
  offered: PackageRow[];
}

type Dialog =
  | { kind: "edit"; pkg: PackageRow | null }
  | { kind: "buy" | "delete"; pkg: PackageRow };

/**
 * /businessCenter: packages offered from above (bought with Mi coins) and, for administrators
 * and distributors, the packages they offer their subtree.
 */
function BusinessCentre({ lang, me }: { lang: Lang; me: WalletMe }) {
  const t = translator(lang);
  const [lists, setLists] = useState<Lists | null>(null);
  const [balance, setBalance] = useState<ShellBalance | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const load = () => {
    api<Lists>("/v3/new/package/list", {}).then(setLists, (e) => toast(e.message, "error"));
    api<ShellBalance>("/v3/new/homepage/queryMiCoinsBalance", {}).then(setBalance, () => {});
  };
  useEffect(load, []);
  const close = () => {
    setDialog(null);
    setError("");
  };
  const act = async (path: string, id: string, done: string) => {
    setBusy(true);
    setError("");
    try {
      await api(path, { id });
      toast(done);
      close();
      load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const grants = (p: PackageRow) => {
    const parts = [
      p.months
        ? t("wallet.packages.grants.card", { card: t(`wallet.cardTypes.${cardOf(p.months)}`) })
        : "",
      p.smsCount ? t("wallet.packages.grants.sms", { count: p.smsCount }) : "",
    ].filter(Boolean);
    return parts.join(" + ") || t("wallet.packages.grants.none");
  };
  return (
    <div class="wallet business">
      <div class="panel-title wallet-title">
        <h1>{t("wallet.packages.title")}</h1>
        <span class="muted">{t("wallet.packages.intro")}</span>
      </div>
      <BalanceStrip t={t} balance={balance} unlimited={me.isPlatform} />
      {!me.isPlatform && (
        <section class="panel">
          <h2 class="wallet-h">{t("wallet.packages.offered")}</h2>
          <PackageTable
            t={t}
            lang={lang}
            id="offered-packages"
            rows={lists?.offered ?? null}
            empty={t("wallet.packages.none")}
            actions={(p) => (
              <button
                type="button"
                class="btn btn-primary btn-sm"
                onClick={() => setDialog({ kind: "buy", pkg: p })}
              >
                {t("wallet.packages.buy")}
              </button>
            )}
          />
        </section>
      )}
      {lists?.canOffer && (
        <section class="panel">
          <div class="wallet-section-head">
            <h2 class="wallet-h">{t("wallet.packages.own")}</h2>
            <button
              type="button"
              class="btn btn-primary"
              id="pkg-add"
              onClick={() => setDialog({ kind: "edit", pkg: null })}
            >
              + {t("wallet.packages.add")}
            </button>
          </div>
          <PackageTable
            t={t}
            lang={lang}
            id="own-packages"
            rows={lists.own}
            empty={t("wallet.packages.noneOwn")}
            actions={(p) => (
              <>
                <button
                  type="button"
                  class="link-btn"
                  onClick={() => setDialog({ kind: "edit", pkg: p })}
                >
                  {t("wallet.packages.edit")}
                </button>
                <button
                  type="button"
                  class="link-btn danger"
                  onClick={() => setDialog({ kind: "delete", pkg: p })}
                >
                  {t("wallet.packages.delete")}
                </button>
              </>
            )}
          />
        </section>
      )}
      {dialog?.kind === "edit" && (
        <PackageForm
          t={t}
          pkg={dialog.pkg}
          onClose={close}
          onSaved={() => {
            close();
            load();
          }}
        />
      )}
      {dialog && dialog.kind !== "edit" && (
        <ConfirmPackage
          t={t}
          dialog={dialog}
          busy={busy}
          error={error}
          grants={grants}
          onClose={close}
          onConfirm={() =>
            dialog.kind === "buy"
              ? act(
                "/v3/new/package/buy",
                dialog.pkg.id,
                t("wallet.packages.bought", { name: dialog.pkg.name }),
              )
              : act("/v3/new/package/delete", dialog.pkg.id, t("wallet.packages.deleted"))}
        />
      )}
      <Toasts />
    </div>
  );
}

/** Buying or deleting a package, asked before it is done. */
function ConfirmPackage({ t, dialog, busy, error, grants, onClose, onConfirm }: {
  t: ReturnType<typeof translator>;
  dialog: { kind: "buy" | "delete"; pkg: PackageRow };
  busy: boolean;
  error: string;
  grants: (p: PackageRow) => string;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const buy = dialog.kind === "buy";
  return (
    <Modal
      title={buy ? t("wallet.packages.buy") : t("wallet.packages.delete")}
      closeLabel={t("ui.close")}
      onClose={onClose}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>
            {t("wallet.packages.cancel")}
          </button>
          <button
            type="button"
            class={`btn ${buy ? "btn-primary" : "btn-danger"}`}
            id="pkg-confirm"
            disabled={busy}
            onClick={onConfirm}
          >
            {t("wallet.packages.confirm")}
          </button>
        </>
      }
    >
      <p id="pkg-question">
        {buy
          ? t("wallet.packages.confirmBuy", {
            name: dialog.pkg.name,
            cost: coinText(dialog.pkg.cost),
            grants: grants(dialog.pkg),
          })
          : t("wallet.packages.confirmDelete", { name: dialog.pkg.name })}
      </p>
      {error && <div class="form-error" role="alert" id="pkg-error">{error}</div>}
    </Modal>
  );
}

/** The card a package's months grant (3 → 3-month card, …). */
const cardOf = (months: number) => CARD_TYPES[[3, 6, 12, 120].indexOf(months)] ?? "point";

export default island("wallet/BusinessCentre", BusinessCentre);

import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { TabButtons } from "../../components/ui/TabButtons.tsx";
import { AccountTree } from "../../components/accounts/AccountTree.tsx";
import type { AccountRef } from "../../components/accounts/types.ts";
import { BalanceStrip } from "../../components/wallet/BalanceStrip.tsx";
import { GivePanel } from "../../components/wallet/GivePanel.tsx";
import { RedeemPanel } from "../../components/wallet/RedeemPanel.tsx";
import { LogPanel } from "../../components/wallet/LogPanel.tsx";
import { RatesPanel } from "../../components/wallet/RatesPanel.tsx";
import { CodesPanel } from "../../components/wallet/CodesPanel.tsx";
import type { ShellBalance, WalletMe } from "../../components/wallet/types.ts";

type Tab = "give" | "logs" | "redeem" | "rates" | "codes";

/**
 * /settingMiCoins: the caller's balances; giving coins and cards to an account chosen in the
 * tree; redeeming card codes; the logs of the chosen account; the rates; and, for the
 * platform administrator, the card codes it imported.
 */
function Wallet({ lang, me }: { lang: Lang; me: WalletMe }) {
  const t = translator(lang);
  const root: AccountRef = {
    id: me.id,
    account: me.account,
    nickName: me.nickName,
    accountType: me.accountType,
  };
  const [target, setTarget] = useState<AccountRef>(root);
  const [balance, setBalance] = useState<ShellBalance | null>(null);
  const [version, setVersion] = useState(0);
  const tabs: Tab[] = me.isPlatform
    ? ["give", "logs", "rates", "codes"]
    : ["give", "logs", "redeem", "rates"];
  const [tab, setTab] = useState<Tab>("give");
  useEffect(() => {
    api<ShellBalance>("/v3/new/homepage/queryMiCoinsBalance", {}).then(setBalance, () => {});
  }, [version]);
  const changed = () => setVersion(version + 1);
  return (
    <div class="wallet">
      <div class="panel-title wallet-title">
        <h1>{t("wallet.title")}</h1>
      </div>
      <BalanceStrip t={t} balance={balance} unlimited={me.isPlatform} />
      <div class="wallet-body">
        <AccountTree
          t={t}
          root={root}
          selectedId={target.id}
          onSelect={setTarget}
          version={0}
          foldedLabel={target.nickName || target.account}
        />
        <section class="panel wallet-main">
          <div class="tabs" role="tablist">
            <TabButtons
              tabs={tabs}
              active={tab}
              tabClass="tab"
              idPrefix="wallet-tab-"
              label={(k) => t(`wallet.tabs.${k}`)}
              onSelect={setTab}
            />
          </div>
          {tab === "give" && <GivePanel t={t} me={me} target={target} onDone={changed} />}
          {tab === "logs" && <LogPanel t={t} target={target} version={version} />}
          {tab === "redeem" && <RedeemPanel t={t} onDone={changed} />}
          {tab === "rates" && <RatesPanel t={t} canEdit={me.isPlatform} />}
          {tab === "codes" && <CodesPanel t={t} />}
        </section>
      </div>
      <Toasts />
    </div>
  );
}

export default island("wallet/Wallet", Wallet);

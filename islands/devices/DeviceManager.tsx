import { useEffect, useMemo, useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { AccountTree } from "../../components/accounts/AccountTree.tsx";
import { useDebounced, useLatest } from "../../components/accounts/hooks.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { DeviceTable } from "../../components/devices/DeviceTable.tsx";
import { AdvancedSearch, FilterBar, StatsBar } from "../../components/devices/FilterBar.tsx";
import { DetailDialog } from "../../components/devices/DetailDialog.tsx";
import { GroupsDialog, SetGroupDialog } from "../../components/devices/GroupsDialog.tsx";
import { BatchEditDialog, ImportDialog } from "../../components/devices/SheetDialogs.tsx";
import { ExpiryDialog, TransferDialog } from "../../components/devices/ActionDialogs.tsx";
import { ImagesDialog } from "../../components/devices/ImagesDialog.tsx";
import { GlobalSearch } from "../../components/devices/GlobalSearch.tsx";
import { RenewDialog } from "../../components/devices/RenewDialog.tsx";
import { EnableDialog } from "../../components/devices/BulkDialog.tsx";
import { ExpiryVisibility } from "../../components/devices/ExpiryVisibility.tsx";
import { SendCommandDialog } from "../../components/commands/SendCommandDialog.tsx";
import { download } from "../../components/devices/transfer_io.ts";
import {
  type DeviceRow,
  EMPTY_FILTERS,
  filterBody,
  type Filters,
  type GroupRow,
  type Me,
  type ModelInfo,
  type SelectedAccount,
  type Stats,
} from "../../components/devices/types.ts";

const EQ = "/v3/new/newEquipment";

interface Props {
  lang: Lang;
  me: Me;
  /** The account to start on: from the URL (a tab opened on an account) or the caller's own. */
  initial: SelectedAccount;
}

/** Dialogs that act on the ticked devices. */
type PickDialog =
  | "enable"
  | "disable"
  | "setGroup"
  | "batchEdit"
  | "transfer"
  | "userExpiry"
  | "platformExpiry"
  | "renew";
type Dialog =
  | { kind: "detail" | "command"; imei: string }
  | { kind: "import" | "groups" | "images" }
  | { kind: PickDialog };

/**
 * /devices: the account tree on the left; on the right the statistics, filters, actions and
 * the device table of the selected account's subtree. The selected account lives in the URL
 * (userId, parentId, fullParentId, nickName) and sessionStorage, so a new tab opens on it.
 */
function DeviceManager({ lang, me, initial }: Props) {
  const t = translator(lang);
  const root: AccountRef = {
    id: me.id,
    account: me.account,
    nickName: me.nickName,
    accountType: me.accountType,
  };
  const [selected, setSelected] = useState<SelectedAccount>(initial);
  const [filters, setFilters] = useState<Filters>(EMPTY_FILTERS);
  const keyword = useDebounced(filters.keyword);
  const [advanced, setAdvanced] = useState(false);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [reloads, setReloads] = useState(0);
  const [checked, setChecked] = useState<Record<string, DeviceRow>>({});
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [models, setModels] = useState<ModelInfo[]>([]);
  const fail = (e: unknown) => toast((e as Error).message || t("ui.requestError"), "error");

  useEffect(() => {
    api<ModelInfo[]>("/v3/new/newDevice/getModelAlias").then(setModels, fail);
  }, []);
  const aliases = useMemo(
    () => new Map(models.map((m) => [m.mcType, m.alias || m.mcType])),
    [models],
  );
  const modelName = (mcType: string) => aliases.get(mcType) ?? mcType;

  const body = { ...filterBody({ ...filters, keyword }, selected.id) };
  const bodyKey = JSON.stringify(body);
  useEffect(() => {
    setPage((p) => ({ ...p, pageNum: 1 }));
    setChecked({});
  }, [bodyKey]);
  useEffect(() => remember(selected), [selected.id]);

  const { data, loading } = useLatest(
    () =>
      api<{ total: number; list: DeviceRow[] }>(`${EQ}/queryEquipmentList`, {
        ...body,
        pageNum: page.pageNum,
        pageSize: page.pageSize,
      }),
    [bodyKey, page.pageNum, page.pageSize, reloads],
    fail,
  );
  const { data: stats } = useLatest(
    () => api<Stats>(`${EQ}/getStatistics`, { userId: selected.id }),
    [selected.id, reloads],
    fail,
  );
  const { data: groups } = useLatest(
    () => api<GroupRow[]>(`${EQ}/getGroupList`, { userId: selected.id }),
    [selected.id, reloads],
    fail,
  );

  const rows = data?.list ?? [];
  const picked = Object.values(checked);
  const imeis = picked.map((r) => r.imei);
  const changed = () => {
    setReloads((n) => n + 1);
  };
  const done = () => {
    setDialog(null);
    setChecked({});
    changed();
  };
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  const needPick = (kind: PickDialog) =>
    picked.length ? setDialog({ kind }) : toast(t("devices.actions.needSelection"), "info");
  const bulk = async (path: string, extra: Record<string, unknown>) => {
    if (!picked.length) return toast(t("devices.actions.needSelection"), "info");
    try {
      await api(`${EQ}/${path}`, { imeis, ...extra });
      toast(t("devices.actions.done"));
      done();
    } catch (e) {
      fail(e);
    }
  };
  const follow = async (r: DeviceRow) => {
    try {
      await api(`${EQ}/follow`, { imeis: [r.imei], follow: !r.followed });
      changed();
    } catch (e) {
      fail(e);
    }
  };
  const kw = filters.keyword.trim();
  const shortDigits = /^\d+$/.test(kw) && (kw.length < 5 || kw.length > 15);

  return (
    <div class="devices">
      <AccountTree
        t={t}
        root={root}
        selectedId={selected.id}
        onSelect={(n) => setSelected(fromNode(n, selected))}
        version={0}
        foldedLabel={t("devices.tree.selected", { name: selected.nickName })}
      />
      <section class="panel devices-main">
        <div class="panel-title">
          <h1>{t("devices.title")}</h1>
          <div class="scope-tools">
            {me.canEdit && selected.id !== me.id && (
              <ExpiryVisibility t={t} userId={selected.id} onChanged={changed} />
            )}
            <span class="scope-chip" data-scope-id={selected.id}>
              {t("devices.tree.selected", { name: selected.nickName })}
              <a
                class="link-btn"
                href={urlFor(selected)}
                target="_blank"
                rel="noopener"
                title={t("devices.actions.openTab")}
              >
                ↗
              </a>
            </span>
          </div>
        </div>
        <StatsBar t={t} stats={stats} filters={filters} onPick={set} />
        <div class="toolbar dev-search">
          <div class="search-box">
            <input
              id="device-search"
              class="input"
              type="search"
              placeholder={t("devices.search.placeholder")}
              aria-label={t("devices.search.label")}
              aria-invalid={shortDigits || undefined}
              maxLength={50}
              value={filters.keyword}
              onInput={(e) => set({ keyword: (e.target as HTMLInputElement).value })}
            />
            {shortDigits && <span class="field-error">{t("devices.search.imeiDigits")}</span>}
          </div>
          <GlobalSearch t={t} onOpen={(imei) => setDialog({ kind: "detail", imei })} />
          <button
            type="button"
            id="toggle-advanced"
            class={`btn${advanced ? " active" : ""}`}
            aria-expanded={advanced}
            onClick={() => setAdvanced(!advanced)}
          >
            {t("devices.advanced.toggle")}
          </button>
          <span class="grow" />
          <button type="button" class="btn" onClick={changed}>
            ⟳ {t("devices.actions.refresh")}
          </button>
        </div>
        <FilterBar
          t={t}
          filters={filters}
          set={set}
          groups={groups ?? []}
          models={models}
          modelName={modelName}
        />
        {advanced && (
          <AdvancedSearch
            t={t}
            filters={filters}
            onApply={set}
            onReset={() => setFilters(EMPTY_FILTERS)}
          />
        )}
        <div class="toolbar dev-actions">
          {me.canEdit && (
            <>
              <button
                type="button"
                id="action-import"
                class="btn btn-primary"
                onClick={() => setDialog({ kind: "import" })}
              >
                + {t("devices.actions.import")}
              </button>
              <button
                type="button"
                id="action-transfer"
                class="btn"
                onClick={() => needPick("transfer")}
              >
                {t("devices.actions.transfer")}
              </button>
              <button
                type="button"
                id="action-set-group"
                class="btn"
                onClick={() => needPick("setGroup")}
              >
                {t("devices.actions.setGroup")}
              </button>
              <button
                type="button"
                id="action-batch-edit"
                class="btn"
                onClick={() => needPick("batchEdit")}
              >
                {t("devices.actions.batchEdit")}
              </button>
              <button
                type="button"
                id="action-enable"
                class="btn"
                onClick={() => needPick("enable")}
              >
                {t("devices.actions.enable")}
              </button>
              <button
                type="button"
                id="action-disable"
                class="btn"
                onClick={() => needPick("disable")}
              >
                {t("devices.actions.disable")}
              </button>
              <button
                type="button"
                id="action-allow"
                class="btn"
                onClick={() => bulk("allowActivation", {})}
              >
                {t("devices.actions.allowActivation")}
              </button>
              <button
                type="button"
                id="action-user-expiry"
                class="btn"
                onClick={() => needPick("userExpiry")}
              >
                {t("devices.actions.userExpiry")}
              </button>
              {me.isAdmin && (
                <button
                  type="button"
                  id="action-platform-expiry"
                  class="btn"
                  onClick={() => needPick("platformExpiry")}
                >
                  {t("devices.actions.platformExpiry")}
                </button>
              )}
              <button
                type="button"
                id="action-images"
                class="btn"
                onClick={() => setDialog({ kind: "images" })}
              >
                {t("devices.actions.images")}
              </button>
            </>
          )}
          {me.canRenew && (
            <button
              type="button"
              id="action-renew"
              class="btn"
              onClick={() => needPick("renew")}
            >
              {t("devices.actions.renew")}
            </button>
          )}
          <button
            type="button"
            id="action-groups"
            class="btn"
            onClick={() => setDialog({ kind: "groups" })}
          >
            {t("devices.actions.groups")}
          </button>
          <button
            type="button"
            id="action-export"
            class="btn"
            onClick={() => download(`${EQ}/exportEquipment`, body).catch(fail)}
          >
            ⤓ {t("devices.actions.export")}
          </button>
          <span class="grow" />
          {picked.length > 0 && (
            <span class="selected-count">
              {t("devices.actions.selected", { count: picked.length })}
            </span>
          )}
        </div>
        <DeviceTable
          t={t}
          rows={rows}
          loading={loading}
          checked={checked}
          modelName={modelName}
          onCheck={(list, on) =>
            setChecked((c) => {
              const next = { ...c };
              for (const r of list) on ? (next[r.imei] = r) : delete next[r.imei];
              return next;
            })}
          onOpen={(r) => setDialog({ kind: "detail", imei: r.imei })}
          onFollow={follow}
          onCommand={me.canCommand
            ? (r) => setDialog({ kind: "command", imei: r.imei })
            : undefined}
        />
        <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      </section>
      {dialog?.kind === "detail" && (
        <DetailDialog
          t={t}
          imei={dialog.imei}
          canEdit={me.canEdit}
          canBindApp={me.canBindApp}
          modelName={modelName}
          onClose={() => setDialog(null)}
          onChanged={changed}
        />
      )}
      {dialog?.kind === "command" && (
        <SendCommandDialog
          t={t}
          imei={dialog.imei}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "import" && (
        <ImportDialog
          t={t}
          account={selected}
          models={models}
          modelName={modelName}
          onClose={() => setDialog(null)}
          onDone={changed}
        />
      )}
      {dialog?.kind === "groups" && (
        <GroupsDialog
          t={t}
          account={selected}
          groups={groups ?? []}
          canEdit={me.canEdit}
          onClose={() => setDialog(null)}
          onChanged={changed}
        />
      )}
      {/* Bulk changes ask first and then report per device; the dialog stays for the report. */}
      {(dialog?.kind === "enable" || dialog?.kind === "disable") && (
        <EnableDialog
          t={t}
          rows={picked}
          enabled={dialog.kind === "enable"}
          onClose={() => setDialog(null)}
          onDone={changed}
        />
      )}
      {dialog?.kind === "setGroup" && (
        <SetGroupDialog
          t={t}
          rows={picked}
          onClose={() => setDialog(null)}
          onDone={changed}
        />
      )}
      {dialog?.kind === "batchEdit" && (
        <BatchEditDialog
          t={t}
          imeis={imeis}
          onClose={() => setDialog(null)}
          onDone={changed}
        />
      )}
      {dialog?.kind === "transfer" && (
        <TransferDialog
          t={t}
          root={root}
          imeis={imeis}
          onClose={() => setDialog(null)}
          onDone={done}
        />
      )}
      {(dialog?.kind === "userExpiry" || dialog?.kind === "platformExpiry") && (
        <ExpiryDialog
          t={t}
          kind={dialog.kind === "userExpiry" ? "user" : "platform"}
          imeis={imeis}
          onClose={() => setDialog(null)}
          onDone={done}
        />
      )}
      {dialog?.kind === "renew" && (
        <RenewDialog
          t={t}
          imeis={imeis}
          onClose={() => setDialog(null)}
          onDone={changed}
        />
      )}
      {dialog?.kind === "images" && (
        <ImagesDialog
          t={t}
          onClose={() => setDialog(null)}
          onDone={changed}
        />
      )}
      <Toasts />
    </div>
  );
}

/** A tree node as the selected account; the full parent path is extended from the node's. */
function fromNode(
  n: AccountRef & { parentId?: string },
  current: SelectedAccount,
): SelectedAccount {
  const parentId = n.parentId ?? "";
  return {
    id: n.id,
    account: n.account,
    nickName: n.nickName,
    accountType: n.accountType,
    parentId,
    // The server fills the authoritative path when the page is opened from the URL.
    fullParentId: parentId === current.id
      ? `${current.fullParentId || ","}${current.id},`
      : current.fullParentId,
  };
}

export function urlFor(a: SelectedAccount): string {
  const q = new URLSearchParams({
    userId: a.id,
    parentId: a.parentId,
    fullParentId: a.fullParentId,
    nickName: a.nickName,
  });
  return `/devices?${q}`;
}

/** Keeps the selected account in the address and the tab's session storage. */
function remember(a: SelectedAccount) {
  history.replaceState(null, "", urlFor(a));
  try {
    sessionStorage.setItem("devices.account", JSON.stringify(a));
  } catch {
    // Storage may be disabled; the address still carries the account.
  }
}

export default island("devices/DeviceManager", DeviceManager);

import { useEffect, useMemo } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { PagerFor } from "../../components/ui/Pagination.tsx";
import { Toasts } from "../../components/ui/Toast.tsx";
import { AccountTree } from "../../components/accounts/AccountTree.tsx";
import { useDebounced, useLatest } from "../../components/accounts/hooks.ts";
import type { AccountRef } from "../../components/accounts/types.ts";
import { DeviceTable } from "../../components/devices/DeviceTable.tsx";
import { AdvancedSearch, FilterBar, StatsBar } from "../../components/devices/FilterBar.tsx";
import { ExpiryVisibility } from "../../components/devices/ExpiryVisibility.tsx";
import { ActionToolbar, SearchToolbar } from "../../components/devices/ManagerToolbars.tsx";
import { ManagerDialogs } from "../../components/devices/ManagerDialogs.tsx";
import {
  changed,
  createDeviceManagerState,
  type DeviceManagerState,
  EQ,
  fail,
  follow,
  setFilters,
} from "../../components/devices/manager_state.ts";
import {
  type DeviceRow,
  EMPTY_FILTERS,
  filterBody,
  type GroupRow,
  type Me,
  type ModelInfo,
  type SelectedAccount,
  type Stats,
} from "../../components/devices/types.ts";

interface Props {
  lang: Lang;
  me: Me;
  /** The account to start on: from the URL (a tab opened on an account) or the caller's own. */
  initial: SelectedAccount;
}

/**
 * /devices: the account tree on the left; on the right the statistics, filters, actions and
 * the device table of the selected account's subtree. The selected account lives in the URL
 * (userId, parentId, fullParentId, nickName) and sessionStorage, so a new tab opens on it.
 * The page's state is a set of signals (components/devices/manager_state.ts) per instance.
 */
function DeviceManager({ lang, me, initial }: Props) {
  const s = useMemo(() => createDeviceManagerState(translator(lang), me, initial), []);
  const { t } = s, selected = s.selected.value, filters = s.filters.value;
  const page = s.page.value, reloads = s.reloads.value;
  const root: AccountRef = {
    id: me.id,
    account: me.account,
    nickName: me.nickName,
    accountType: me.accountType,
  };
  const keyword = useDebounced(filters.keyword);
  useEffect(() => {
    api<ModelInfo[]>("/v3/new/newDevice/getModelAlias").then((m) => (s.models.value = m), fail(s));
  }, []);
  const models = s.models.value;
  const aliases = useMemo(
    () => new Map(models.map((m) => [m.mcType, m.alias || m.mcType])),
    [models],
  );
  const modelName = (mcType: string) => aliases.get(mcType) ?? mcType;

  const body = { ...filterBody({ ...filters, keyword }, selected.id) };
  const bodyKey = JSON.stringify(body);
  useEffect(() => {
    s.page.value = { ...s.page.peek(), pageNum: 1 };
    s.checked.value = {};
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
    fail(s),
  );
  const { data: stats } = useLatest(
    () => api<Stats>(`${EQ}/getStatistics`, { userId: selected.id }),
    [selected.id, reloads],
    fail(s),
  );
  const { data: groups } = useLatest(
    () => api<GroupRow[]>(`${EQ}/getGroupList`, { userId: selected.id }),
    [selected.id, reloads],
    fail(s),
  );

  return (
    <div class="devices">
      <AccountTree
        t={t}
        root={root}
        selectedId={selected.id}
        onSelect={(n) => (s.selected.value = fromNode(n, selected))}
        version={0}
        foldedLabel={t("devices.tree.selected", { name: selected.nickName })}
      />
      <section class="panel devices-main">
        <ScopeTitle s={s} />
        <StatsBar t={t} stats={stats} filters={filters} onPick={(p) => setFilters(s, p)} />
        <SearchToolbar s={s} />
        <FilterBar
          t={t}
          filters={filters}
          set={(p) => setFilters(s, p)}
          groups={groups ?? []}
          models={models}
          modelName={modelName}
        />
        {s.advanced.value && (
          <AdvancedSearch
            t={t}
            filters={filters}
            onApply={(p) => setFilters(s, p)}
            onReset={() => (s.filters.value = EMPTY_FILTERS)}
          />
        )}
        <ActionToolbar s={s} body={body} />
        <DevicePage s={s} rows={data?.list ?? []} loading={loading} modelName={modelName} />
        <PagerFor
          t={t}
          total={data?.total ?? 0}
          page={page}
          setPage={(p) => (s.page.value = p)}
        />
      </section>
      <ManagerDialogs s={s} root={root} groups={groups ?? []} modelName={modelName} />
      <Toasts />
    </div>
  );
}

/** The page title with the selected account (and its expiry visibility, for editors). */
function ScopeTitle({ s }: { s: DeviceManagerState }) {
  const { t, me } = s, selected = s.selected.value;
  return (
    <div class="panel-title">
      <h1>{t("devices.title")}</h1>
      <div class="scope-tools">
        {me.canEdit && selected.id !== me.id && (
          <ExpiryVisibility
            t={t}
            userId={selected.id}
            onChanged={() => changed(s)}
          />
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
  );
}

/** The device table of the current page, with ticks kept in the page's state. */
function DevicePage(
  { s, rows, loading, modelName }: {
    s: DeviceManagerState;
    rows: DeviceRow[];
    loading: boolean;
    modelName: (mcType: string) => string;
  },
) {
  return (
    <DeviceTable
      t={s.t}
      rows={rows}
      loading={loading}
      checked={s.checked.value}
      modelName={modelName}
      onCheck={(list, on) => {
        const next = { ...s.checked.peek() };
        for (const r of list) on ? (next[r.imei] = r) : delete next[r.imei];
        s.checked.value = next;
      }}
      onOpen={(r) => (s.dialog.value = { kind: "detail", imei: r.imei })}
      onFollow={(r) => follow(s, r)}
      onCommand={s.me.canCommand
        ? (r) => (s.dialog.value = { kind: "command", imei: r.imei })
        : undefined}
    />
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

import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { AccountTree } from "../../components/accounts/AccountTree.tsx";
import { AccountTable, type RowAction } from "../../components/accounts/AccountTable.tsx";
import { AddAccountDialog, EditAccountDialog } from "../../components/accounts/AccountDialog.tsx";
import { PasswordDialog } from "../../components/accounts/PasswordDialog.tsx";
import { MoveDialog } from "../../components/accounts/MoveDialog.tsx";
import { DeleteDialog } from "../../components/accounts/DeleteDialog.tsx";
import { VirtualDialog } from "../../components/accounts/VirtualDialog.tsx";
import { useDebounced, useLatest } from "../../components/accounts/hooks.ts";
import { exportInfo, openDevices } from "../../components/accounts/row_links.ts";
import {
  type AccountRef,
  type AccountRow,
  canCreateAccounts,
  creatableTypes,
  type Me,
  type Page,
  TYPE_ORDER,
} from "../../components/accounts/types.ts";

interface Props {
  lang: Lang;
  me: Me;
}

type Dialog =
  | { kind: "add" }
  | { kind: "virtual" }
  | { kind: "move"; rows: AccountRow[] }
  | { kind: Exclude<RowAction, "move" | "devices" | "exportInfo">; row: AccountRow };

/** /account: the caller's account tree on the left, its sub-accounts in a table on the right. */
function AccountManager({ lang, me }: Props) {
  const t = translator(lang);
  // me.id is the account whose subtree the caller works in (a virtual user's master).
  const rootId = me.id;
  const root: AccountRef = {
    id: rootId,
    account: me.account,
    nickName: me.nickName,
    accountType: me.accountType,
  };
  const list = useSubAccounts(t, root);
  const { selected, data, checked } = list;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const changed = (hierarchy = true) => {
    setDialog(null);
    list.refresh(hierarchy);
  };

  return (
    <div class="accounts">
      <AccountTree
        t={t}
        root={root}
        selectedId={selected.id}
        onSelect={list.setSelected}
        version={list.treeVersion}
      />
      <section class="panel accounts-main">
        <div class="panel-title">
          <h1>{t("accounts.title")}</h1>
          <span class="scope-chip" data-scope-id={selected.id}>
            {t("accounts.scope", { name: selected.nickName })}
            {selected.id !== rootId && (
              <button
                type="button"
                class="link-btn"
                onClick={() => list.setSelected(root)}
              >
                {t("accounts.showAll")}
              </button>
            )}
          </span>
        </div>
        <AccountToolbar t={t} me={me} list={list} openDialog={setDialog} />
        <AccountTable
          t={t}
          rows={data?.list ?? []}
          loading={list.loading}
          canModify={me.canModify}
          checked={checked}
          onCheck={list.onCheck}
          onAction={(action, row) =>
            action === "devices"
              ? openDevices(row)
              : action === "exportInfo"
              ? exportInfo(row, t("demo.accountInfo.exported"))
              : setDialog(
                action === "move" ? { kind: "move", rows: [row] } : { kind: action, row },
              )}
        />
        <PagerFor t={t} total={data?.total ?? 0} page={list.page} setPage={list.setPage} />
      </section>
      {dialog && (
        <AccountDialogs
          t={t}
          me={me}
          root={root}
          superior={selected}
          dialog={dialog}
          onClose={close}
          onChanged={changed}
        />
      )}
      <Toasts />
    </div>
  );
}

type Translate = ReturnType<typeof translator>;
type SubAccounts = ReturnType<typeof useSubAccounts>;

/** The sub-account list: scope (tree selection), filters, page, ticked rows and reloads. */
function useSubAccounts(t: Translate, root: AccountRef) {
  const rootId = root.id;
  const [selected, setSelected] = useState<AccountRef>(root);
  const [query, setQuery] = useState("");
  const keyword = useDebounced(query.trim());
  const [typeFilter, setTypeFilter] = useState("");
  const [directOnly, setDirectOnly] = useState(false);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [reloads, setReloads] = useState(0);
  const [treeVersion, setTreeVersion] = useState(0);
  const [checked, setChecked] = useState<Record<string, AccountRow>>({});

  // Any change of filter starts again at page 1 with nothing ticked.
  useEffect(() => {
    setPage((p) => ({ ...p, pageNum: 1 }));
    setChecked({});
  }, [keyword, typeFilter, directOnly, selected.id]);

  const { data, loading } = useLatest(
    () =>
      api<Page<AccountRow>>("/v3/new/account/children", {
        pageNum: page.pageNum,
        pageSize: page.pageSize,
        ...(keyword ? { keyword } : {}),
        ...(selected.id !== rootId ? { parentId: selected.id } : {}),
        ...(directOnly ? { directOnly: true } : {}),
        ...(typeFilter ? { accountType: Number(typeFilter) } : {}),
      }),
    [page.pageNum, page.pageSize, keyword, typeFilter, directOnly, selected.id, rootId, reloads],
    (e) => toast((e as Error).message || t("ui.requestError"), "error"),
  );

  /** After a change: nothing ticked, the list reloaded, and the tree too when the hierarchy moved. */
  const refresh = (hierarchy: boolean) => {
    setChecked({});
    setReloads((n) => n + 1);
    if (hierarchy) setTreeVersion((n) => n + 1);
  };
  const onCheck = (list: AccountRow[], on: boolean) =>
    setChecked((c) => {
      const next = { ...c };
      for (const r of list) on ? (next[r.id] = r) : delete next[r.id];
      return next;
    });
  return {
    selected,
    setSelected,
    query,
    setQuery,
    typeFilter,
    setTypeFilter,
    directOnly,
    setDirectOnly,
    page,
    setPage,
    treeVersion,
    checked,
    onCheck,
    refresh,
    data,
    loading,
  };
}

/** Search, type filter, direct-only toggle and the virtual / move / add buttons. */
function AccountToolbar(
  { t, me, list, openDialog }: {
    t: Translate;
    me: Me;
    list: SubAccounts;
    openDialog: (d: Dialog) => void;
  },
) {
  const checkedRows = Object.values(list.checked);
  const mayAdd = me.canModify && canCreateAccounts(me.accountType);
  const superiorTypes = creatableTypes(me.accountType, list.selected.accountType);
  return (
    <div class="toolbar">
      <input
        id="account-search"
        class="input"
        type="search"
        placeholder={t("accounts.toolbar.search")}
        aria-label={t("accounts.toolbar.search")}
        value={list.query}
        onInput={(e) => list.setQuery((e.target as HTMLInputElement).value)}
      />
      <select
        id="account-type-filter"
        class="input type-filter"
        aria-label={t("accounts.toolbar.type")}
        value={list.typeFilter}
        onChange={(e) => list.setTypeFilter((e.target as HTMLSelectElement).value)}
      >
        <option value="">{t("accounts.toolbar.allTypes")}</option>
        {TYPE_ORDER.filter((v) => v !== 0).map((v) => (
          <option key={v} value={String(v)}>{t(`shell.accountTypes.${v}`)}</option>
        ))}
      </select>
      <label class="toggle">
        <input
          id="account-direct-only"
          type="checkbox"
          checked={list.directOnly}
          onChange={(e) => list.setDirectOnly((e.target as HTMLInputElement).checked)}
        />
        {t("accounts.toolbar.directOnly")}
      </label>
      <span class="grow" />
      {me.accountType === 0 && !me.isVirtual && (
        <a id="account-demo-review" class="btn" href="/demoApplications">
          {t("demo.review.nav")}
        </a>
      )}
      {!me.isVirtual && (
        <button
          type="button"
          id="account-virtual"
          class="btn"
          onClick={() => openDialog({ kind: "virtual" })}
        >
          {t("accounts.toolbar.virtual")}
        </button>
      )}
      {me.canModify && (
        <button
          type="button"
          id="account-move"
          class="btn"
          disabled={!checkedRows.length}
          title={checkedRows.length ? undefined : t("accounts.toolbar.moveHint")}
          onClick={() => openDialog({ kind: "move", rows: checkedRows })}
        >
          {t("accounts.toolbar.move")}
          {checkedRows.length > 0 && <span class="count">{checkedRows.length}</span>}
        </button>
      )}
      {mayAdd && (
        <button
          type="button"
          id="account-add"
          class="btn btn-primary"
          disabled={!superiorTypes.length}
          title={superiorTypes.length ? undefined : t("accounts.toolbar.addHint")}
          onClick={() => openDialog({ kind: "add" })}
        >
          + {t("accounts.toolbar.add")}
        </button>
      )}
    </div>
  );
}

/** The open dialog: add, edit, reset password, move, delete or virtual accounts. */
function AccountDialogs(
  { t, me, root, superior, dialog, onClose, onChanged }: {
    t: Translate;
    me: Me;
    root: AccountRef;
    superior: AccountRef;
    dialog: Dialog;
    onClose: () => void;
    onChanged: (hierarchy?: boolean) => void;
  },
) {
  const close = onClose;
  const changed = onChanged;
  switch (dialog.kind) {
    case "add":
      return (
        <AddAccountDialog
          t={t}
          me={me}
          superior={superior}
          onClose={close}
          onDone={changed}
        />
      );
    case "edit":
      return <EditAccountDialog t={t} me={me} row={dialog.row} onClose={close} onDone={changed} />;
    case "reset":
      return (
        <PasswordDialog
          t={t}
          row={dialog.row}
          onClose={close}
          onDone={() => changed(false)}
        />
      );
    case "move":
      return <MoveDialog t={t} root={root} rows={dialog.rows} onClose={close} onDone={changed} />;
    case "delete":
      return (
        <DeleteDialog
          t={t}
          title={t("accounts.dialogs.delete")}
          message={t("accounts.deleteConfirm", {
            account: dialog.row.account,
            name: dialog.row.nickName,
          })}
          remove={() => api("/v3/new/account/delete", { id: dialog.row.id })}
          done={t("accounts.toast.deleted", { account: dialog.row.account })}
          onClose={close}
          onDone={changed}
        />
      );
    case "virtual":
      return <VirtualDialog t={t} onClose={close} />;
  }
}

export default island("accounts/AccountManager", AccountManager);

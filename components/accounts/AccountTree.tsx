import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { useDebounced, useLatest } from "./hooks.ts";
import { TypeTag } from "./TypeTag.tsx";
import type { AccountRef, AccountRow, Page, TreeNode } from "./types.ts";

interface Props {
  t: TFunction;
  /** The caller: the tree's root node. */
  root: AccountRef;
  selectedId: string;
  onSelect: (node: AccountRef) => void;
  /** Bumped after changes to the hierarchy: open nodes reload their children. */
  version: number;
  /**
   * When given, where the tree sits above the page (phones, narrow windows) it folds into a
   * button with these words (the selected account's name), so the page's own content comes
   * first; the button opens it, choosing an account folds it again.
   */
  foldedLabel?: string;
}

const fail = (e: unknown) => toast((e as Error).message, "error");

/** The caller's subtree, loaded one level at a time, with a search over the whole subtree. */
export function AccountTree(
  { t, root, selectedId, onSelect: select, version, foldedLabel }: Props,
) {
  const [query, setQuery] = useState("");
  const keyword = useDebounced(query.trim());
  const [unfolded, setUnfolded] = useState(false);
  const foldable = foldedLabel !== undefined;
  const onSelect = (node: AccountRef) => {
    setUnfolded(false);
    select(node);
  };
  const cls = `tree-panel${foldable ? " foldable" : ""}${unfolded ? " unfolded" : ""}`;
  return (
    <aside class={cls} aria-label={t("accounts.tree.label")}>
      {foldable && (
        <button
          type="button"
          class="tree-fold"
          aria-expanded={unfolded}
          title={t("accounts.tree.label")}
          onClick={() => setUnfolded(!unfolded)}
        >
          <span class="tree-fold-label">{foldedLabel}</span>
          <span class="tree-fold-mark" aria-hidden="true">{unfolded ? "▴" : "▾"}</span>
        </button>
      )}
      <input
        id="tree-search"
        class="input"
        type="search"
        placeholder={t("accounts.tree.search")}
        aria-label={t("accounts.tree.search")}
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      {keyword
        ? <SearchResults t={t} keyword={keyword} selectedId={selectedId} onSelect={onSelect} />
        : (
          <ul class="tree" role="tree">
            <Branch
              t={t}
              node={{ ...root, parentId: "", hasChildren: true }}
              isRoot
              selectedId={selectedId}
              onSelect={onSelect}
              version={version}
            />
          </ul>
        )}
    </aside>
  );
}

interface BranchProps {
  t: TFunction;
  node: TreeNode;
  isRoot?: boolean;
  selectedId: string;
  onSelect: (node: AccountRef) => void;
  version: number;
}

function Branch({ t, node, isRoot, selectedId, onSelect, version }: BranchProps) {
  const [open, setOpen] = useState(!!isRoot);
  const [kids, setKids] = useState<TreeNode[] | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    api<TreeNode[]>("/v3/new/account/tree", isRoot ? {} : { parentId: node.id })
      .then((list) => live && setKids(list), fail)
      .finally(() => live && setLoading(false));
    return () => (live = false);
  }, [open, version, node.id]);

  const expandable = isRoot || node.hasChildren;
  const selected = node.id === selectedId;
  return (
    <li role="treeitem" aria-expanded={expandable ? open : undefined} aria-selected={selected}>
      <div
        class={`tree-row${selected ? " selected" : ""}`}
        data-tree-id={node.id}
        tabIndex={0}
        title={`${node.nickName} (${node.account})`}
        onClick={() => onSelect(node)}
        onKeyDown={(e) => {
          if (e.key === "Enter") onSelect(node);
          if (expandable && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
            setOpen(e.key === "ArrowRight");
          }
        }}
      >
        {expandable
          ? (
            <button
              type="button"
              class="tree-toggle"
              tabIndex={-1}
              aria-label={t(open ? "accounts.tree.collapse" : "accounts.tree.expand")}
              onClick={(e) => {
                e.stopPropagation();
                setOpen(!open);
              }}
            >
              {open ? "▾" : "▸"}
            </button>
          )
          : <span class="tree-toggle" aria-hidden="true" />}
        <span class="tree-label">
          <span class="tree-name">{node.nickName}</span>
          <TypeTag t={t} type={node.accountType} />
        </span>
      </div>
      {open && (
        <ul role="group">
          {loading && !kids && <li class="tree-note">{t("ui.loading")}</li>}
          {kids?.length === 0 && <li class="tree-note">{t("accounts.tree.noChildren")}</li>}
          {kids?.map((k) => (
            <Branch
              key={k.id}
              t={t}
              node={k}
              selectedId={selectedId}
              onSelect={onSelect}
              version={version}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

interface SearchProps {
  t: TFunction;
  keyword: string;
  selectedId: string;
  onSelect: (node: AccountRef) => void;
}

/** Matches from the whole subtree, as a flat list. */
function SearchResults({ t, keyword, selectedId, onSelect }: SearchProps) {
  const { data, loading } = useLatest(
    () => api<Page<AccountRow>>("/v3/new/account/children", { pageNum: 1, pageSize: 50, keyword }),
    [keyword],
    fail,
  );
  if (loading && !data) return <p class="tree-note">{t("ui.loading")}</p>;
  if (!data?.list.length) return <p class="tree-note">{t("accounts.tree.noMatch")}</p>;
  return (
    <ul class="tree tree-flat" role="listbox" aria-label={t("accounts.tree.results")}>
      {data.list.map((a) => (
        <li key={a.id} role="option" aria-selected={a.id === selectedId}>
          <div
            class={`tree-row${a.id === selectedId ? " selected" : ""}`}
            data-tree-id={a.id}
            tabIndex={0}
            title={`${a.nickName} (${a.account})`}
            onClick={() => onSelect(a)}
            onKeyDown={(e) => e.key === "Enter" && onSelect(a)}
          >
            <span class="tree-name">{a.nickName}</span>
            <span class="tree-sub">{a.account}</span>
            <TypeTag t={t} type={a.accountType} />
          </div>
        </li>
      ))}
      {data.total > data.list.length && (
        <li class="tree-note">
          {t("accounts.tree.more", { count: data.total - data.list.length })}
        </li>
      )}
    </ul>
  );
}

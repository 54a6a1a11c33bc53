import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { FormDialog, useForm } from "./form.tsx";
import { useDebounced, useLatest } from "./hooks.ts";
import { TypeTag } from "./TypeTag.tsx";
import { ACCOUNT_TYPES, type AccountRef, type AccountRow, type Page } from "./types.ts";

interface Props {
  t: TFunction;
  /** The caller: a valid target (directly under itself). */
  root: AccountRef;
  rows: AccountRow[];
  onClose: () => void;
  onDone: () => void;
}

const PICK_SIZE = 50;

/** Moves accounts (with their subtrees) under a target picked from the caller's subtree. */
export function MoveDialog({ t, root, rows, onClose, onDone }: Props) {
  const form = useForm({ targetId: "" }, t);
  const [query, setQuery] = useState("");
  const keyword = useDebounced(query.trim());
  const [loadError, setLoadError] = useState("");
  const { data, loading } = useLatest(
    () =>
      api<Page<AccountRow>>("/v3/new/account/children", {
        pageNum: 1,
        pageSize: PICK_SIZE,
        ...(keyword ? { keyword } : {}),
      }),
    [keyword],
    (e) => setLoadError((e as Error).message),
  );
  const moving = new Set(rows.map((r) => r.id));
  const matchesRoot = !keyword ||
    [root.account, root.nickName].some((s) => s.toLowerCase().includes(keyword.toLowerCase()));
  // End users cannot hold accounts, and nothing moves under itself.
  const candidates: AccountRef[] = [...(matchesRoot ? [root] : []), ...(data?.list ?? [])]
    .filter((a) => !moving.has(a.id) && a.accountType !== ACCOUNT_TYPES.endUser);
  const names = rows.map((r) => r.account).join(", ");

  return (
    <FormDialog
      t={t}
      title={t("accounts.dialogs.move")}
      submitLabel={t("accounts.actions.move")}
      busy={form.busy}
      formError={form.formError || loadError}
      onClose={onClose}
      onSubmit={() =>
        form.submit(
          { targetId: [(v) => (v ? null : { key: "accounts.move.pickTarget", plain: true })] },
          { targetId: t("accounts.move.target") },
          async () => {
            await api("/v3/new/account/move", {
              ids: rows.map((r) => r.id),
              targetId: form.values.targetId,
            });
            toast(t("accounts.toast.moved", { count: rows.length }));
            onDone();
          },
        )}
    >
      <p class="dialog-note">
        {t("accounts.move.moving", { count: rows.length })} <strong>{names}</strong>
      </p>
      <input
        id="move-search"
        class="input"
        type="search"
        placeholder={t("accounts.move.search")}
        aria-label={t("accounts.move.search")}
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      <div class="pick-list" role="radiogroup" aria-label={t("accounts.move.target")}>
        {candidates.map((a) => (
          <label
            key={a.id}
            class={`pick-row${form.values.targetId === a.id ? " selected" : ""}`}
            data-target-account={a.account}
          >
            <input
              type="radio"
              name="targetId"
              value={a.id}
              checked={form.values.targetId === a.id}
              onChange={() => form.set("targetId", a.id)}
            />
            <span class="pick-name">{a.nickName}</span>
            <span class="pick-sub">{a.account}</span>
            <TypeTag t={t} type={a.accountType} />
          </label>
        ))}
        {!candidates.length && (
          <p class="tree-note">{loading ? t("ui.loading") : t("accounts.tree.noMatch")}</p>
        )}
      </div>
      {form.errors.targetId && <p class="field-error" role="alert">{form.errors.targetId}</p>}
      {data && data.total > PICK_SIZE && <p class="field-hint">{t("accounts.move.refine")}</p>}
    </FormDialog>
  );
}

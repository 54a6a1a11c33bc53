import type { TFunction } from "i18next";
import { type ReactNode, useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast, Toasts } from "../ui/Toast.tsx";
import { Confirm } from "./Confirm.tsx";
import { PageHead } from "./PageParts.tsx";

/**
 * A saved-template list page's data: the list answer of `listPath` (loaded once, reloaded by
 * `load`), the template being edited (`saved` closes the editor and reloads), the template
 * being removed and its removal through `deletePath`, then a reload. `removedToast`, when
 * given, is shown after a removal.
 */
export function useTemplates<D, T extends { id: string }, E = T>(
  listPath: string,
  deletePath: string,
  removedToast?: string,
) {
  const [data, setData] = useState<D | null>(null);
  const [editing, setEditing] = useState<E | null>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const load = () =>
    api<D>(listPath, {}).then(setData, (e) => toast((e as Error).message, "error"));
  const saved = () => {
    setEditing(null);
    load();
  };
  useEffect(() => void load(), []);
  const remove = async () => {
    try {
      await api(deletePath, { id: removing!.id });
      if (removedToast) toast(removedToast);
      setRemoving(null);
      load();
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  return { data, editing, setEditing, saved, removing, setRemoving, remove };
}

/** Asks before a named template is deleted. */
export function RemoveTemplate({ t, name, onCancel, onConfirm }: {
  t: TFunction;
  name: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Confirm
      t={t}
      title={t("ui.delete")}
      text={t("commands.ui.deleteTemplate", { name })}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}

/** What a template editor dialog is given. */
export interface EditorProps<E> {
  initial: E;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * A template list page: head, the notice when templates cannot be changed, a toolbar (`hint`,
 * then the add button) over the table (`children`), the `editor` of `list.editing` and the
 * removal question for `list.removing`.
 */
export function TemplatesPage<E>({ t, page, vars, canModify, list, hint, add, editor, children }: {
  t: TFunction;
  page: "commandTemplate" | "workingModeTemplate";
  /** Values for the page introduction (the template limit). */
  vars?: Record<string, unknown>;
  canModify: boolean;
  list: {
    editing: E | null;
    setEditing: (x: null) => void;
    saved: () => void;
    removing: { name: string } | null;
    setRemoving: (x: null) => void;
    remove: () => void;
  };
  hint?: ReactNode;
  add: { label: string; disabled: boolean; title?: string; onClick: () => void };
  editor: (props: EditorProps<E>) => ReactNode;
  children: ReactNode;
}) {
  return (
    <div class="cmd-page">
      <PageHead t={t} page={page} vars={vars} />
      {!canModify && <p class="notice">{t("commands.ui.noModify")}</p>}
      <section class="panel">
        <div class="toolbar">
          {hint}
          <span class="grow" />
          <button
            type="button"
            class="btn btn-primary"
            disabled={add.disabled}
            title={add.title}
            onClick={add.onClick}
          >
            {add.label}
          </button>
        </div>
        {children}
      </section>
      {list.editing && editor({
        initial: list.editing,
        onClose: () => list.setEditing(null),
        onSaved: list.saved,
      })}
      {list.removing && (
        <RemoveTemplate
          t={t}
          name={list.removing.name}
          onCancel={() => list.setRemoving(null)}
          onConfirm={list.remove}
        />
      )}
      <Toasts />
    </div>
  );
}

import type { TFunction } from "i18next";
import { useEffect, useState } from "preact/hooks";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { Confirm } from "./Confirm.tsx";

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

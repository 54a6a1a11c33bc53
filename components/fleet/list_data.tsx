/**
 * Loading, deleting and the load-error page shared by the fleet lists (planned routes and
 * reminders load through useListPage; drivers and vehicles through useManagedList; all delete
 * through confirmDelete).
 */
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { FIRST_PAGE, type PageState } from "../ui/Pagination.tsx";

const messageOf = (e: unknown) => e instanceof ApiError ? e.message : String(e);

/** A failed call as an error toast. */
export const failToast = (e: unknown) => toast(messageOf(e), "error");

/**
 * A searchable, filtered, paged list with an edit dialog (drivers, vehicles): the page, the
 * keyword being typed, the filter in force, the rows, the row being edited ("new" for an add).
 */
export function useManagedList<Row, Filter extends { keyword?: string }>(path: string) {
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [keyword, setKeyword] = useState("");
  const [filter, setFilter] = useState<Filter>({} as Filter);
  const [data, setData] = useState<{ total: number; list: Row[] } | null>(null);
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    api<{ total: number; list: Row[] }>(path, { ...page, ...filter }).then(setData, failToast);
  }, [page, filter, version]);
  return {
    page,
    setPage,
    keyword,
    setKeyword,
    filter,
    data,
    editing,
    setEditing,
    reload: () => setVersion((v) => v + 1),
    /** Changes part of the filter and goes back to the first page. */
    refilter: (change: Partial<Filter>) => {
      setPage({ ...page, pageNum: 1 });
      setFilter({ ...filter, ...change });
    },
  };
}

/** One page from `path` with `body`, fetched again whenever one of `deps` changes. */
export function useListPage<Row>(path: string, body: Record<string, unknown>, deps: unknown[]) {
  const [data, setData] = useState<{ total: number; list: Row[] } | null>(null);
  const [error, setError] = useState("");
  const load = () =>
    api<{ total: number; list: Row[] }>(path, body).then(setData, (e) => setError(messageOf(e)));
  useEffect(() => {
    load();
  }, deps);
  return { data, error, load };
}

/** Asks `question`; on yes deletes the row by id, says `done` and reloads the list. */
export async function confirmDelete(
  question: string,
  path: string,
  id: string,
  done: string,
  reload: () => void,
) {
  if (!confirm(question)) return;
  try {
    await api(path, { ids: [id] });
    toast(done);
    reload();
  } catch (e) {
    toast(messageOf(e), "error");
  }
}

/** The page shown instead of the list when it cannot be loaded. */
export function LoadError({ message }: { message: string }) {
  return (
    <div class="page">
      <div class="empty">{message}</div>
    </div>
  );
}

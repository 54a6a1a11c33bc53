/**
 * Loading, deleting and the load-error page shared by the fleet lists (planned routes and
 * reminders load through useListPage; drivers and vehicles delete through confirmDelete too).
 */
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";

const messageOf = (e: unknown) => e instanceof ApiError ? e.message : String(e);

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

import { useEffect, useState } from "react";
import { toast } from "../ui/Toast.tsx";
import { DEFAULT_PAGE_SIZE } from "../ui/Pagination.tsx";

export interface Paged<T> {
  total: number;
  list: T[];
}

/**
 * One page of a list API: reloads when the page or `deps` change, keeps only the newest
 * answer, and (with `pollWhile`) reloads every `pollMs` while the page holds rows still moving.
 */
export function usePaged<T>(
  load: (page: { pageNum: number; pageSize: number }) => Promise<Paged<T>>,
  deps: unknown[],
  opts: { pollWhile?: (list: T[]) => boolean; pollMs?: number } = {},
) {
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [data, setData] = useState<Paged<T> | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoading(true);
    load(page).then((d) => {
      if (!live) return;
      setData(d);
      if (opts.pollWhile?.(d.list)) {
        timer = setTimeout(() => setTick((n) => n + 1), opts.pollMs ?? 2000);
      }
    }, (e) => toast((e as Error).message, "error")).finally(() => live && setLoading(false));
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [page.pageNum, page.pageSize, tick, ...deps]);
  return {
    data,
    rows: data?.list ?? [],
    loading,
    reload: () => setTick((n) => n + 1),
    /** Back to the first page (after a filter change). */
    firstPage: () => setPage((p) => ({ ...p, pageNum: 1 })),
    paging: {
      total: data?.total ?? 0,
      pageNum: page.pageNum,
      pageSize: page.pageSize,
      onChange: (pageNum: number, pageSize: number) => setPage({ pageNum, pageSize }),
    },
  };
}

import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import {
  BATCH_DOWNLOAD_MAX,
  type CameraNickname,
  HISTORY_KEEP_DAYS,
  type HistoryFile,
} from "../../modules/video/model.ts";
import { DevicePanel } from "../../components/video/DevicePanel.tsx";
import { HistoryPlayer } from "../../components/video/HistoryPlayer.tsx";
import { Timeline } from "../../components/video/Timeline.tsx";
import { DownloadList } from "../../components/video/DownloadList.tsx";
import { VideoShareDialog } from "../../components/video/VideoShareDialog.tsx";
import { useVideoBasics } from "../../components/video/useVideoBasics.ts";
import {
  cameraLabel,
  dayBounds,
  formatSize,
  formatTime,
  loadCameras,
  refusalText,
  todayIn,
  zoneOffsetMs,
} from "../../components/video/video_data.ts";

interface Query {
  day: string;
  from: string;
  to: string;
  channel: number;
}

/** ISO UTC of `day` + `hhmm` in the user's zone. */
function atLocal(day: string, hhmm: string, timeZone: string): string {
  const guess = new Date(`${day}T${hhmm}:00Z`).getTime();
  return new Date(guess - zoneOffsetMs(guess, timeZone)).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * /historyVideo: a device's recordings of one day and channel (history/list), on a timeline and
 * in a table; play one (history/play) with pause, seek and speed; download one or a batch of up
 * to BATCH_DOWNLOAD_MAX as MP4 (history/download) and follow the downloads.
 */
function HistoryVideo(
  { lang, models, timeZone, imei: firstImei }: {
    lang: Lang;
    models: string[];
    timeZone: string;
    imei?: string;
  },
) {
  const t = useMemo(() => translator(lang), [lang]);
  const fail = (e: unknown) => toast(refusalText(e), "error");
  const { devices } = useVideoBasics(models, fail);
  const [device, setDevice] = useState(firstImei ?? "");
  const [cameras, setCameras] = useState<CameraNickname[]>([]);
  const [query, setQuery] = useState<Query>({
    day: todayIn(timeZone),
    from: "00:00",
    to: "23:59",
    channel: 0,
  });
  const [files, setFiles] = useState<HistoryFile[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [playing, setPlaying] = useState<HistoryFile | null>(null);
  const [sharing, setSharing] = useState<HistoryFile | null>(null);
  const [downloads, setDownloads] = useState(0);
  const name = devices?.find((d) => d.imei === device)?.name ?? device;

  useEffect(() => {
    setFiles(null);
    setPlaying(null);
    setChecked(new Set());
    if (device) loadCameras(device).then(setCameras);
  }, [device]);

  const search = async (e?: Event) => {
    e?.preventDefault();
    if (!device) return toast(t("video.history.pickDevice"), "error");
    setBusy(true);
    setPlaying(null);
    setChecked(new Set());
    try {
      const { list } = await api<{ list: HistoryFile[] }>("/v3/new/video/history/list", {
        imei: device,
        channel: query.channel,
        startTime: atLocal(query.day, query.from, timeZone),
        endTime: atLocal(query.day, query.to, timeZone),
      });
      setFiles(list);
    } catch (err) {
      setFiles([]);
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const download = async (list: HistoryFile[]) => {
    if (list.length > BATCH_DOWNLOAD_MAX) {
      return toast(t("video.history.batchMax", { n: BATCH_DOWNLOAD_MAX }), "error");
    }
    try {
      await api("/v3/new/video/history/download", {
        imei: device,
        files: list.map((f) => ({
          channel: f.channel,
          startTime: f.startTime,
          endTime: f.endTime,
        })),
      });
      toast(t("video.history.downloadStarted", { count: list.length }));
      setDownloads(downloads + 1);
    } catch (err) {
      fail(err);
    }
  };
  const toggle = (id: string) => {
    const next = new Set(checked);
    next.has(id) ? next.delete(id) : next.add(id);
    setChecked(next);
  };
  return (
    <div class="vd-history" data-testid="history-page">
      <DevicePanel t={t} devices={devices} selected={device} onSelect={setDevice} />
      <section class="vd-main">
        <QueryForm
          t={t}
          query={query}
          setQuery={setQuery}
          cameras={cameras}
          timeZone={timeZone}
          busy={busy}
          disabled={!device}
          onSearch={search}
        />
        {!device && <p class="vd-hint">{t("video.history.hint")}</p>}
        {files && (
          <Timeline
            t={t}
            files={files}
            dayStart={dayBounds(query.day, timeZone).start}
            timeZone={timeZone}
            playing={playing?.id ?? null}
            onPick={setPlaying}
          />
        )}
        {playing && (
          <HistoryPlayer
            key={playing.id}
            t={t}
            imei={device}
            file={playing}
            timeZone={timeZone}
            title={name}
            onClose={() => setPlaying(null)}
            onDownload={() => download([playing])}
          />
        )}
        {files && (
          <FileTable
            t={t}
            files={files}
            timeZone={timeZone}
            checked={checked}
            toggle={toggle}
            setChecked={setChecked}
            onPlay={setPlaying}
            onDownload={(f) => download([f])}
            onShare={setSharing}
            onBatch={() => download(files.filter((f) => checked.has(f.id)))}
          />
        )}
        <DownloadList t={t} timeZone={timeZone} reload={downloads} />
      </section>
      {sharing && (
        <VideoShareDialog
          t={t}
          title={name}
          request={{
            imei: device,
            channel: sharing.channel,
            kind: "history",
            startTime: sharing.startTime,
            endTime: sharing.endTime,
          }}
          onClose={() => setSharing(null)}
        />
      )}
      <Toasts />
    </div>
  );
}

type T = ReturnType<typeof translator>;

/** Channel (or all), day (within the days history is kept), from and to. */
function QueryForm(
  { t, query, setQuery, cameras, timeZone, busy, disabled, onSearch }: {
    t: T;
    query: Query;
    setQuery: (q: Query) => void;
    cameras: CameraNickname[];
    timeZone: string;
    busy: boolean;
    disabled: boolean;
    onSearch: (e: Event) => void;
  },
) {
  const oldest = new Date(Date.now() - HISTORY_KEEP_DAYS * 86_400_000).toISOString().slice(0, 10);
  const set = (k: keyof Query) => (e: Event) => {
    const v = (e.target as HTMLInputElement).value;
    setQuery({ ...query, [k]: k === "channel" ? Number(v) : v });
  };
  return (
    <form class="toolbar vd-query" onSubmit={onSearch}>
      <label>
        {t("video.cameras.channel")}
        <select class="input" name="channel" value={query.channel} onChange={set("channel")}>
          <option value={0}>{t("video.history.allChannels")}</option>
          {cameras.map((c) => <option key={c.channel} value={c.channel}>{cameraLabel(c, t)}
          </option>)}
        </select>
      </label>
      <label>
        {t("video.history.day")}
        <input
          class="input"
          type="date"
          name="day"
          value={query.day}
          min={oldest}
          max={todayIn(timeZone)}
          onInput={set("day")}
        />
      </label>
      <label>
        {t("video.history.from")}
        <input class="input" type="time" name="from" value={query.from} onInput={set("from")} />
      </label>
      <label>
        {t("video.history.to")}
        <input class="input" type="time" name="to" value={query.to} onInput={set("to")} />
      </label>
      <button class="btn btn-primary" type="submit" disabled={busy || disabled} id="history-search">
        {busy ? t("video.history.searching") : t("ui.search")}
      </button>
    </form>
  );
}

/** The day's files: channel, start, end, size, alarm flag; play, download, share; batch download. */
function FileTable(
  { t, files, timeZone, checked, toggle, setChecked, onPlay, onDownload, onShare, onBatch }: {
    t: T;
    files: HistoryFile[];
    timeZone: string;
    checked: Set<string>;
    toggle: (id: string) => void;
    setChecked: (s: Set<string>) => void;
    onPlay: (f: HistoryFile) => void;
    onDownload: (f: HistoryFile) => void;
    onShare: (f: HistoryFile) => void;
    onBatch: () => void;
  },
) {
  const all = files.length > 0 && files.every((f) => checked.has(f.id));
  return (
    <section class="vd-files">
      <div class="toolbar">
        <span class="muted">{t("video.history.count", { count: files.length })}</span>
        <span class="grow" />
        <button
          type="button"
          class="btn"
          disabled={!checked.size || checked.size > BATCH_DOWNLOAD_MAX}
          onClick={onBatch}
          title={t("video.history.batchMax", { n: BATCH_DOWNLOAD_MAX })}
        >
          {t("video.history.batchDownload", { n: checked.size, max: BATCH_DOWNLOAD_MAX })}
        </button>
      </div>
      <div class="table-wrap">
        <table class="data">
          <thead>
            <tr>
              <th>
                <input
                  type="checkbox"
                  aria-label={t("video.history.selectAll")}
                  checked={all}
                  onChange={() => setChecked(all ? new Set() : new Set(files.map((f) => f.id)))}
                />
              </th>
              <th>{t("video.cameras.channel")}</th>
              <th>{t("video.history.start")}</th>
              <th>{t("video.history.end")}</th>
              <th>{t("video.history.size")}</th>
              <th>{t("video.history.alarm")}</th>
              <th>{t("ui.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {!files.length && (
              <tr>
                <td colSpan={7} class="empty">{t("video.history.empty")}</td>
              </tr>
            )}
            {files.map((f) => (
              <tr key={f.id} data-testid="history-file">
                <td>
                  <input
                    type="checkbox"
                    aria-label={formatTime(f.startTime, timeZone)}
                    checked={checked.has(f.id)}
                    onChange={() => toggle(f.id)}
                  />
                </td>
                <td>{t("video.common.channel", { n: f.channel })}</td>
                <td>{formatTime(f.startTime, timeZone)}</td>
                <td>{formatTime(f.endTime, timeZone)}</td>
                <td>{formatSize(f.size)}</td>
                <td>
                  {f.alarmFlags !== "0"
                    ? <span class="badge warn">{t("video.history.alarmYes")}</span>
                    : <span class="muted">{t("video.history.alarmNo")}</span>}
                </td>
                <td>
                  <div class="vd-row-actions">
                    <button
                      type="button"
                      class="link-btn"
                      data-action="play"
                      onClick={() => onPlay(f)}
                    >
                      {t("video.history.play")}
                    </button>
                    <button type="button" class="link-btn" onClick={() => onDownload(f)}>
                      {t("video.history.download")}
                    </button>
                    <button type="button" class="link-btn" onClick={() => onShare(f)}>
                      {t("video.share.button")}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default island("video/HistoryVideo", HistoryVideo);

/**
 * Builds the video area from what it uses (app/compose.ts passes them): the media hub (the
 * JT/T 1078 half, modules/video/media), the gateway's live connections, the alert history, the
 * device directory and access. Answers the API's services and the gateway's VideoDesk.
 */
import { FsBlobStore } from "../../lib/blobs/fs.ts";
import type { BlobStore } from "../../lib/blobs/types.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AlertHistory } from "../alerts/types.ts";
import type { Connections, LiveConnection } from "../gateway/types.ts";
import { VideoGatewayDesk } from "./desk.ts";
import { VideoDownloads } from "./downloads.ts";
import { EventMedia } from "./event_media.ts";
import { HlsServing, type RemoteHls } from "./hls.ts";
import { LiveVideo } from "./live.ts";
import { OpenVideo } from "./open.ts";
import type { VideoServices } from "./routes.ts";
import { VideoSettingsService, type VisibleDevice } from "./settings.ts";
import { VideoShares } from "./shares.ts";
import { VideoLink } from "./signalling.ts";
import type { SignalRelay, SignalTarget } from "./signal_relay.ts";
import type { VideoStore } from "./store.ts";
import type { MediaHub } from "./types.ts";

export interface VideoDeps {
  store: VideoStore;
  /** Local working files (the MP4 recorder); finished files go to `blobs`. */
  dataDir: string;
  /** Downloads and event media (app/compose.ts's store; files under dataDir when not given). */
  blobs?: BlobStore;
  hub: MediaHub;
  connections: Connections;
  alerts: AlertHistory;
  devices: VisibleDevice;
  /** Devices of the caller's subtree (all, or the named ones it sees). */
  visibleImeis: (session: Session, imeis?: string[]) => Promise<string[]>;
  device: (imei: string) => { userId: string; deviceName: string } | undefined;
  /** This server's media (JT/T 1078) and attachment addresses for a device's connection. */
  mediaAddress: (conn: Pick<LiveConnection, "remote">) => { host: string; port: number };
  attachmentAddress: (conn: LiveConnection) => { host: string; port: number };
  driverOf?: (imei: string, time: number) => Promise<{ name: string; photo?: string } | null>;
  startTimeoutMs?: number;
  /** Cluster mode: HLS of streams other instances hold (the ClusterMediaHub). */
  remoteHls?: RemoteHls;
  /** Cluster mode: signalling to terminals connected to other instances, and serving theirs. */
  relay?: SignalRelay;
  serveSignals?: (target: SignalTarget) => void;
}

export interface VideoArea {
  services: VideoServices;
  desk: VideoGatewayDesk;
}

export function createVideo(d: VideoDeps): VideoArea {
  const store = d.store;
  const blobs = d.blobs ?? new FsBlobStore(d.dataDir);
  const link = new VideoLink(d.connections, d.relay);
  d.serveSignals?.(link.local);
  const settings = new VideoSettingsService(store, d.devices);
  const shares = new VideoShares(store, d.devices);
  const live = new LiveVideo({
    link,
    hub: d.hub,
    devices: d.devices,
    settings,
    mediaAddress: d.mediaAddress,
    startTimeoutMs: d.startTimeoutMs,
  });
  const events = new EventMedia({
    store,
    link,
    alerts: d.alerts,
    blobs,
    attachmentAddress: d.attachmentAddress,
    device: d.device,
    visibleImeis: d.visibleImeis,
    driverOf: d.driverOf,
  });
  const downloads = new VideoDownloads({
    store,
    hub: d.hub,
    live,
    link,
    devices: d.devices,
    dataDir: d.dataDir,
    blobs,
  });
  return {
    services: {
      live,
      downloads,
      events,
      settings,
      shares,
      hls: new HlsServing(d.hub, d.devices, shares, d.remoteHls),
      open: new OpenVideo(shares, live),
      deviceName: (imei) => d.device(imei)?.deviceName ?? imei,
    },
    desk: new VideoGatewayDesk(link, events),
  };
}

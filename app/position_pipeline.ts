/**
 * What happens to what a device reports, in order — the way Traccar's ProcessingHandler
 * lists its handlers. The first two steps are the gateway's commit; every later one is a
 * handler in its own module, called in this order for each event the commit produced:
 *
 *   1. store          modules/gateway/ingest/ingest.ts journal + alarm records, one KV commit per
 *                                                  batch; devices are acknowledged after it
 *   2. device state   modules/gateway/ingest/ingest.ts the directory's live state, derived status
 *                                                  (then: "position", "status", "alert" events)
 *   3. alert engine   modules/alerts/engine.ts    thresholds and fences → engine alerts
 *                                                  (and "fenceCrossed" for every crossing)
 *   4. motion analysis modules/motion/engine.ts   trips, stops, idling, ignition, overspeed,
 *                                                  day summaries (every stored fix, history
 *                                                  too: "positionsCommitted"), online/offline
 *                                                  intervals, fence visits; left out with
 *                                                  MOTION_ANALYSIS=off
 *      sensor readings modules/sensors/recorder.ts series and events (fuel, temperature, OBD,
 *                                                  battery, behaviour, clock-ins; refuels/drains)
 *      event media    modules/video/camera_files.ts   dash cam event files named in fixes
 *   5. auto broadcast modules/alerts/broadcast.ts commands sent on stored alerts
 *   6. alert delivery modules/alerts/delivery.ts  console pop-up, mail, webhooks
 *      open api push  modules/openapi/push_delivery.ts  alarms, positions, online/offline
 *   7. alert address  modules/geocoder/alert_addresses.ts  street address, written later
 *   8. report counts  modules/notifications/notices.ts     the "few reports" notice
 *   9. live stream    modules/monitor/stream.ts   server-sent events to open map pages
 *   … later: fleet rules.
 *
 * Engine alerts come back through the bus as "alert" events and pass steps 4-8 like device
 * alarms. Handlers are plain functions built once here: nothing is allocated per position.
 *
 * `durable` marks handlers that must not lose an event when the platform runs as a cluster
 * (they will get a durable queue); the others only show a stale view if one is lost.
 */
import type { Handler } from "../lib/events/bus.ts";
import type { AlertRaised, FenceCrossed } from "../modules/alerts/events.ts";
import type { AutoBroadcast } from "../modules/alerts/broadcast.ts";
import type { AlertDelivery } from "../modules/alerts/delivery.ts";
import type { AlertEngine } from "../modules/alerts/engine.ts";
import type {
  DeviceConnection,
  DeviceStatusChanged,
  DriverIdentified,
  PositionsCommitted,
  PositionStored,
  StatusReported,
} from "../modules/gateway/events.ts";
import type { MotionEngine } from "../modules/motion/engine.ts";
import type { AlertAddresses } from "../modules/geocoder/alert_addresses.ts";
import type { LiveStreams } from "../modules/monitor/stream.ts";
import type { PlatformNotices } from "../modules/notifications/notices.ts";
import type { PushDelivery } from "../modules/openapi/push_delivery.ts";
import type { SensorRecorder } from "../modules/sensors/recorder.ts";
import type { EventMedia } from "../modules/video/event_media.ts";
import { cameraFilesHandler } from "../modules/video/camera_files.ts";
import type { AppBus } from "./events.ts";

/** One step after the commit: its handler for each kind of event it reacts to. */
export interface PipelineStage {
  name: string;
  /** Must see every event, also in cluster mode (required: every stage decides). */
  durable: boolean;
  position?: Handler<PositionStored>;
  status?: Handler<DeviceStatusChanged>;
  alert?: Handler<AlertRaised>;
  connection?: Handler<DeviceConnection>;
  committed?: Handler<PositionsCommitted>;
  fenceCrossed?: Handler<FenceCrossed>;
  statusReported?: Handler<StatusReported>;
  identified?: Handler<DriverIdentified>;
}

export interface PipelineServices {
  alertEngine: AlertEngine;
  autoBroadcast: AutoBroadcast;
  alertDelivery: AlertDelivery;
  alertAddresses: AlertAddresses;
  notices: PlatformNotices;
  streams: LiveStreams;
  /** Null when MOTION_ANALYSIS=off (the stage is left out). */
  motion: MotionEngine | null;
  openPush: PushDelivery;
  sensors: SensorRecorder;
  /** Dash cam event files named in stored fixes (GT06-family 0x95) become event media. */
  eventMedia: Pick<EventMedia, "onCameraFiles">;
}

/** The stages after the gateway's commit, in order. */
export function positionPipeline(s: PipelineServices): PipelineStage[] {
  return [
    {
      name: "alert engine",
      durable: true,
      position: s.alertEngine.handle,
      status: s.alertEngine.handle,
      // Cluster mode: a device connecting here has its engine state read again.
      connection: s.alertEngine.handle,
    },
    ...(s.motion
      ? [{
        name: "motion analysis",
        durable: true,
        committed: s.motion.onCommitted,
        status: s.motion.onStatus,
        connection: s.motion.onConnection,
        fenceCrossed: s.motion.onFenceCrossed,
      }]
      : []),
    {
      name: "sensor readings",
      durable: true,
      committed: s.sensors.onCommitted,
      statusReported: s.sensors.onStatusReported,
      identified: s.sensors.onIdentified,
      connection: s.sensors.onConnection,
    },
    { name: "event media", durable: true, committed: cameraFilesHandler(s.eventMedia) },
    { name: "auto broadcast", durable: true, alert: (e) => s.autoBroadcast.onAlert(e.alert) },
    { name: "alert delivery", durable: true, alert: s.alertDelivery.handle },
    {
      name: "open api push",
      durable: true,
      alert: s.openPush.onAlert,
      connection: s.openPush.onConnection,
      committed: s.openPush.onCommitted,
    },
    // The alert already carries the address worked out when it was raised.
    { name: "alert address", durable: false, alert: s.alertAddresses.handle },
    { name: "report counts", durable: true, position: (e) => s.notices.countPosition(e.imei) },
    {
      name: "live stream",
      durable: false,
      position: s.streams.handle,
      status: s.streams.handle,
      alert: s.streams.handle,
    },
  ];
}

/** Subscribes the stages to the bus in their order. */
export function connectPipeline(bus: AppBus, stages: PipelineStage[]): void {
  for (const stage of stages) {
    const opts = { name: stage.name, durable: stage.durable };
    if (stage.position) bus.on("position", stage.position, opts);
    if (stage.status) bus.on("status", stage.status, opts);
    if (stage.alert) bus.on("alert", stage.alert, opts);
    if (stage.connection) bus.on("connection", stage.connection, opts);
    if (stage.committed) bus.on("positionsCommitted", stage.committed, opts);
    if (stage.fenceCrossed) bus.on("fenceCrossed", stage.fenceCrossed, opts);
    if (stage.statusReported) bus.on("statusReported", stage.statusReported, opts);
    if (stage.identified) bus.on("driverIdentified", stage.identified, opts);
  }
}

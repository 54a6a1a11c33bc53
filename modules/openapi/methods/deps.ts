/**
 * The services the Open API's device, location, track, alarm, instruction, fence and report
 * methods use (app/compose.ts hands them over; each method file takes only what it reads).
 */
import type { AccessGuard } from "../../accounts/access.ts";
import type { AccountLookup } from "../../accounts/model.ts";
import type { AlertHistory } from "../../alerts/types.ts";
import type { CommandRequests } from "../../commands/requests.ts";
import type { DeviceDirectory } from "../../devices/directory.ts";
import type { DeviceOperations } from "../../devices/operations.ts";
import type { DeviceService } from "../../devices/service.ts";
import type { DeviceTransfer } from "../../devices/transfer.ts";
import type { GeofenceService } from "../../geofences/service.ts";
import type { ShareService } from "../../monitor/share.ts";
import type { MotionReader } from "../../motion/types.ts";
import type { TrackJsonReader, TrackReader } from "../../positions/types.ts";

export interface OpenMethodDeps {
  access: AccessGuard;
  accounts: AccountLookup;
  directory: DeviceDirectory;
  devices: DeviceService;
  deviceOps: DeviceOperations;
  deviceTransfer: DeviceTransfer;
  /** Tracks (the position store), read without the playback page's 31-day API rule. */
  tracks: TrackReader & TrackJsonReader;
  alerts: AlertHistory;
  shares: ShareService;
  commandRequests: CommandRequests;
  geofences: GeofenceService;
  motion: MotionReader;
  /** How long a silent device stays online (OFFLINE_MINUTES). */
  offlineMs: number;
}

/** The few platform API calls the simulator, its test and the benchmark use. */
import type { ProtocolName } from "../devices/models.ts";

/** Device model imported for each simulated protocol (see modules/devices/models.ts). */
export const MODEL_FOR: Record<ProtocolName, string> = {
  gt06: "GT06N",
  jt808: "JT808",
  h02: "H02",
  osmand: "OsmAnd",
};

/** The gateway's default listening ports. */
export const DEFAULT_PORTS: Record<ProtocolName, number> = {
  gt06: 5023,
  jt808: 5015,
  h02: 5013,
  osmand: 5055,
};

/** Error codes of the catalogue the simulator reacts to (lib/errors.ts). */
export const CODES = { success: 10000, captchaIncorrect: 40009, imeiExists: 42015 } as const;

export class ApiError extends Error {
  constructor(readonly path: string, readonly code: number, message: string) {
    super(`${path}: ${message} (code ${code})`);
  }
}

export interface ImportResult {
  imported: number;
  /** Already registered (by an earlier run): fine for a simulation. */
  existing: number;
  failed: { imei: string; code: number; reason: string }[];
}

export class PlatformApi {
  constructor(readonly base: string, private token = "") {}

  static async login(base: string, account: string, password: string): Promise<PlatformApi> {
    const api = new PlatformApi(base.replace(/\/+$/, ""));
    const data = await api.call<{ token: string }>("/v3/new/account/login", { account, password });
    api.token = data.token;
    return api;
  }

  /** POSTs JSON (GET without a body); returns `data` or throws ApiError. */
  async call<T = unknown>(path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(this.base + path, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: { code?: number; msg?: string; data?: T };
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(path, res.status, `HTTP ${res.status} ${text.slice(0, 200)}`);
    }
    if (json.code !== CODES.success) {
      throw new ApiError(path, json.code ?? res.status, json.msg ?? `HTTP ${res.status}`);
    }
    return json.data as T;
  }

  async currentUserId(): Promise<string> {
    return (await this.call<{ userId: string }>("/v3/new/account/current")).userId;
  }

  /** Imports in calls of at most 1000 IMEIs; devices that already exist are counted, not failed. */
  async importDevices(
    userId: string,
    mcType: string,
    imeis: string[],
    onProgress?: (done: number) => void,
  ): Promise<ImportResult> {
    const result: ImportResult = { imported: 0, existing: 0, failed: [] };
    for (let i = 0; i < imeis.length; i += 1000) {
      const r = await this.call<{ succeeded: number; failed: ImportResult["failed"] }>(
        "/v3/new/newEquipment/importEquipment",
        { userId, mcType, imeis: imeis.slice(i, i + 1000) },
      );
      result.imported += r.succeeded;
      for (const f of r.failed) {
        if (f.code === CODES.imeiExists) result.existing++;
        else result.failed.push(f);
      }
      onProgress?.(Math.min(imeis.length, i + 1000));
    }
    return result;
  }

  listDevices(body: Record<string, unknown> = {}) {
    return this.call<{ total: number; list: DeviceRow[] }>(
      "/v3/new/newEquipment/queryEquipmentList",
      { pageNum: 1, pageSize: 100, ...body },
    );
  }

  playback(imei: string, start: Date, end: Date) {
    return this.call<{ imei: string; points: PlaybackPoint[] }>("/v3/new/monitor/playback", {
      imei,
      startTime: start.toISOString(),
      endTime: end.toISOString(),
    });
  }

  sendCommand(imei: string, content: string, sendType: "online" | "offline" = "online") {
    return this.call<{ id: string; status: string }>("/v3/new/command/send", {
      imei,
      content,
      sendType,
    });
  }

  listCommands(imei: string) {
    return this.call<{ total: number; list: CommandRow[] }>("/v3/new/command/list", {
      imei,
      pageNum: 1,
      pageSize: 10,
    });
  }
}

export interface DeviceRow {
  imei: string;
  mcType: string;
  status: string;
  activationTime: string | null;
  hbTime: string | null;
  gpsTime: string | null;
  acc: boolean | null;
  battery: number | null;
  position:
    | { lat: number; lng: number; speed: number; course: number; mileage: number | null }
    | null;
}

export interface PlaybackPoint {
  gpsTime: string;
  lat: number;
  lng: number;
  speed: number;
  course: number;
  acc: boolean | null;
  mileage: number | null;
}

export interface CommandRow {
  id: string;
  content: string;
  status: string;
  reply: string | null;
}

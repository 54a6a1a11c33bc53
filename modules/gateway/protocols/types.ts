/**
 * The contract between a protocol (splitter + decoder + encoder) and the gateway.
 *
 * A protocol never touches storage or sockets: it turns bytes into typed messages and
 * typed requests into bytes. The gateway stores the messages first and only then writes
 * the replies, so a device is acknowledged only for what is durably committed.
 */

/** 1 GPS, 2 LBS, 3 WIFI, 4 IPT, 5 BEACON (spec: position types). */
export type PositionType = 1 | 2 | 3 | 4 | 5;

/** Device alarms the gateway records as alert records. */
export type AlarmType =
  | "sos"
  | "powerCut"
  | "vibration"
  | "geofenceEnter"
  | "geofenceExit"
  | "overspeed"
  | "lowBattery"
  | "lowPower"
  | "tamper"
  | "movement"
  | "accident"
  | "fatigue"
  | "harshAcceleration"
  | "harshBraking"
  | "harshCornering"
  | "door"
  | "removing"
  | "powerOff"
  | "powerOn"
  | "gpsAntennaCut"
  | "temperature"
  | "fall"
  | "general";

export type AttributeValue = string | number | boolean;

export interface Position {
  /** Fix time, UTC. */
  time: Date;
  valid: boolean;
  latitude: number;
  longitude: number;
  /** Metres. */
  altitude: number;
  /** Knots, as the protocols and the fixtures use; the API converts to km/h. */
  speed: number;
  /** Degrees 0-359. */
  course: number;
  satellites?: number;
  posType: PositionType;
  /** Ignition. */
  acc?: boolean;
  /** Odometer, km. */
  mileage?: number;
  /** Battery percent 0-100 when the device reports one. */
  battery?: number;
  /** Signal level 0-4. */
  signal?: number;
  alarm?: AlarmType;
  /** Everything else the protocol carries (fuel, power voltage, cell ids, io…). */
  attributes: Record<string, AttributeValue>;
}

export type DeviceMessage =
  /**
   * The device told who it is: an IMEI, or (JT/T 808) a terminal phone number. `fallback`:
   * another reading of the same frame names another id (a JT/T 808 version bit that is a
   * vendor's reserved bit); when only that one is a known device, the gateway merges
   * `fallback.extra` into the session and decodes the frame again.
   */
  | {
    type: "identify";
    id: string;
    model?: string;
    timezoneOffsetMinutes?: number;
    fallback?: { id: string; extra: Record<string, unknown> };
  }
  /**
   * The device `id` asks for credentials (JT/T 808 0x0100); `reply(code)` is the answer carrying
   * the auth code the gateway issued, `reply(null)` the refusal. Handled by the link itself,
   * never stored.
   */
  | { type: "register"; id: string; reply: (code: string | null) => Uint8Array }
  /**
   * The device presents its credentials (JT/T 808 0x0102); `reply(accepted)` is the answer.
   * Handled by the link itself, never stored.
   */
  | { type: "authenticate"; code: string; reply: (accepted: boolean) => Uint8Array }
  | { type: "position"; position: Position }
  /** Several positions at once (batch / blind-area re-upload). */
  | { type: "positions"; positions: Position[] }
  /** Heartbeat or status without a location. */
  | {
    type: "status";
    time: Date;
    acc?: boolean;
    battery?: number;
    signal?: number;
    alarm?: AlarmType;
    attributes: Record<string, AttributeValue>;
  }
  /** The device's answer to a command; serverFlag/serial matches it to the sent command when the protocol carries one. */
  | { type: "commandReply"; text: string; commandRef?: number; success?: boolean }
  /** Video signalling answers and alarm media (JT/T 1078, T/JSATL12): for the video module. */
  | { type: "video"; event: VideoEvent };

/** Mutable per-connection state a decoder keeps between frames (identity, time zone, counters). */
export interface ProtocolSession {
  /** Set by the decoder when the device identified itself. */
  deviceId?: string;
  timezoneOffsetMinutes?: number;
  /** Outgoing serial number for server-originated messages. */
  serial: number;
  /** Protocol-specific extras. */
  extra: Record<string, unknown>;
}

export interface DecodeResult {
  messages: DeviceMessage[];
  /** Bytes to send back, written only after the messages are stored. */
  replies: Uint8Array[];
  /**
   * The answer instead of `replies` when the connection may not report yet (JT/T 808 before a
   * valid authentication): its messages are dropped and the device told so.
   */
  refusal?: () => Uint8Array;
}

/** Thrown by a splitter when a frame is oversized or the stream cannot be resynchronised; the gateway closes that connection. */
export class FrameError extends Error {}

export interface FrameSplitter {
  /**
   * Feeds received bytes; returns the complete frames now available (possibly none). The
   * chunk is only valid during the call (the reader reuses its buffer): frames and any
   * remainder kept for the next call must be copies.
   */
  push(chunk: Uint8Array): Uint8Array[];
}

export interface TextCommand {
  /** Free text (or protocol command string) typed by the operator. */
  content: string;
  /** Reference the device echoes back so the reply can be matched (GT06 server flag, JT808 serial). */
  ref: number;
}

/**
 * A command that is not operator text: a message of one protocol, typed by its `kind` (the
 * protocol's name first). Stored with the command record, so its shape is data.
 */
export type BinaryCommand =
  /** JT/T 808 0x8105 terminal control: command word and its ";"-separated parameters. */
  | { kind: "jt808Control"; word: number; params?: string }
  /** JT/T 808 0x8103 set terminal parameters: DWORD values by parameter id. */
  | { kind: "jt808Params"; params: { id: number; value: number }[] }
  /** JT/T 808 0x8201 position query ("locate now"); answered by 0x0201 with the location. */
  | { kind: "jt808Locate" }
  /** JT/T 1078 / T/JSATL12 video signalling (0x9101, 0x9102, 0x9201, 0x9202, 0x9205, 0x9208). */
  | { kind: "jt808Video"; request: VideoRequest };

/**
 * The video requests a JT/T 808 terminal takes (JT/T 1078-2016 §5.4-5.5, T/JSATL12 §4.5).
 * Times are epoch ms (UTC); the encoder writes them in the terminal's local time like positions.
 */
export type VideoRequest =
  /** 0x9101: open a real-time audio/video stream to host:port (TCP). */
  | { type: "live"; host: string; port: number; channel: number; stream: "main" | "sub" }
  /** 0x9102: close (0) the channel's real-time stream. */
  | { type: "liveClose"; channel: number }
  /** 0x9205: list recorded files of a channel (0: all) in [start, end]. */
  | { type: "queryResources"; channel: number; start: number; end: number }
  /** 0x9201: play a recording back to host:port (mode 0 normal, speed 1). */
  | {
    type: "playback";
    host: string;
    port: number;
    channel: number;
    start: number;
    end: number;
  }
  /** 0x9202: playback control: 0 play, 1 pause, 2 stop, 3 fast forward, 5 seek. */
  | { type: "playbackControl"; channel: number; control: number; speed: number; seekTo: number }
  /** 0x9208: upload the attachments of an active-safety alarm to host:port. */
  | { type: "attachmentUpload"; host: string; port: number; label: string; alarmNo: string };

/** One file of a 0x1205 resource list. */
export interface VideoResource {
  channel: number;
  /** Epoch ms. */
  start: number;
  end: number;
  /** 64-bit alarm flags as a decimal string. */
  alarmFlags: string;
  /** 0 audio+video, 1 audio, 2 video. */
  avType: number;
  /** 1 main, 2 sub. */
  streamType: number;
  /** 1 main storage, 2 backup. */
  storageType: number;
  size: number;
}

/** What a terminal tells the video module over its JT/T 808 link. */
export type VideoEvent =
  /** 0x1205: the files a 0x9205 (header serial `serial`) asked for. */
  | { kind: "resources"; serial: number; files: VideoResource[] }
  /**
   * An active-safety alarm item (0x64 ADAS, 0x65 DMS, 0x66 TPMS, 0x67 BSD) in a location report:
   * `label` is the 16-byte alarm identification number (hex), `files` its attachment count.
   */
  | {
    kind: "safetyAlarm";
    family: "adas" | "dms" | "tpms" | "bsd";
    alarmType: number;
    label: string;
    files: number;
    /** Epoch ms of the report. */
    time: number;
  }
  /** 0x0800 multimedia event: a picture or video the terminal is about to upload (0x0801). */
  | { kind: "mediaEvent"; mediaId: number; mediaType: number; event: number; channel: number }
  /** 0x0801 multimedia data: one complete upload over the 808 link. */
  | {
    kind: "mediaData";
    mediaId: number;
    mediaType: number;
    format: number;
    event: number;
    channel: number;
    data: Uint8Array;
  };

/** A command on its way to a device: text, or a binary message when `native` is set. */
export interface OutgoingCommand extends TextCommand {
  /** The protocol message the command is, when it is not the protocol's text command. */
  native?: BinaryCommand | null;
}

/** The protocol cannot encode the command (it is refused, never half-sent). */
export class CommandEncodeError extends Error {}

export interface TcpProtocol {
  name: "gt06" | "jt808" | "h02";
  createSplitter(): FrameSplitter;
  /** Never throws on hostile input: malformed frames give `{messages: [], replies: []}` or throw FrameError. */
  decode(frame: Uint8Array, session: ProtocolSession): DecodeResult;
  /**
   * Frames a command, text or binary; throws (any error) when this protocol cannot carry it,
   * e.g. a binary command of another protocol.
   */
  encodeCommand(command: OutgoingCommand, session: ProtocolSession): Uint8Array;
}

/** For protocols whose only command is text: refuses a binary one. */
export function textOnly(protocol: TcpProtocol["name"], command: OutgoingCommand): TextCommand {
  if (command.native) throw new CommandEncodeError(`${protocol} has no ${command.native.kind}`);
  return command;
}

export function newSession(): ProtocolSession {
  return { serial: 0, extra: {} };
}

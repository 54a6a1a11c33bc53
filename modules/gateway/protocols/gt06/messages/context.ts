/** Per-frame decoding state shared by the message handlers. */

import type {
  AlarmType,
  AttributeValue,
  DeviceMessage,
  Position,
  ProtocolSession,
} from "../../types.ts";
import { buildFrame, type Gt06Frame } from "../frame.ts";
import { ByteReader, TruncatedError } from "../reader.ts";

/** Fields a status-bearing packet can fill on either a Position or a status message. */
export interface Telemetry {
  acc?: boolean;
  battery?: number;
  signal?: number;
  alarm?: AlarmType;
  mileage?: number;
  attributes: Record<string, AttributeValue>;
}

export class DecodeContext {
  readonly messages: DeviceMessage[] = [];
  readonly replies: Uint8Array[] = [];

  constructor(
    readonly frame: Gt06Frame,
    readonly session: ProtocolSession,
    readonly now: () => Date,
  ) {}

  /** Device model configured for this connection (selects a few vendor layouts), upper case. */
  get model(): string {
    const model = this.session.extra.model;
    return typeof model === "string" ? model.toUpperCase() : "";
  }

  /**
   * Reader over the message content. Frames sent without serial/CRC have their data in the
   * trailer position, so when the content is shorter than the fixed part a message needs,
   * the whole payload is read instead.
   */
  reader(minimum = 0): ByteReader {
    const { content, payload } = this.frame;
    return new ByteReader(content.length >= minimum ? content : payload);
  }

  /** Runs an optional trailing-field parser: a truncated tail must not lose what was decoded. */
  optional(parse: () => void): void {
    try {
      parse();
    } catch (error) {
      if (!(error instanceof TruncatedError)) throw error;
    }
  }

  position(position: Position): void {
    this.messages.push({ type: "position", position });
  }

  /**
   * A cell/WIFI fix is only useful with towers or access points to resolve; without them
   * (and without GPS) the packet is reported as a status so no empty (0,0) position is stored.
   */
  positionIfLocatable(position: Position): void {
    const { attributes } = position;
    if (
      position.posType === 1 || attributes.cellTowers !== undefined ||
      attributes.wifiAccessPoints !== undefined
    ) {
      this.position(position);
    } else {
      this.status(position.time, position);
    }
  }

  status(time: Date, telemetry: Telemetry): void {
    const { acc, battery, signal, alarm, attributes } = telemetry;
    const status: DeviceMessage = { type: "status", time, attributes };
    if (acc !== undefined) status.acc = acc;
    if (battery !== undefined) status.battery = battery;
    if (signal !== undefined) status.signal = signal;
    if (alarm !== undefined) status.alarm = alarm;
    if (telemetry.mileage !== undefined) attributes.mileage = telemetry.mileage;
    this.messages.push(status);
  }

  /** Acknowledges the frame the way GT06 devices expect: same protocol number and serial. */
  ack(extended = this.frame.extended, type = this.frame.type): void {
    this.replies.push(buildFrame(type, this.frame.serial, undefined, extended));
  }

  reply(frame: Uint8Array): void {
    this.replies.push(frame);
  }
}

export type Handler = (ctx: DecodeContext) => void;

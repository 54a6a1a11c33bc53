/**
 * Checks decoded messages against a fixture `expect` (see shared/fixtures/protocols/README.md).
 * Returns a failure description, or undefined when the expectation holds.
 *
 * Traccar attribute names map to this contract: `batteryLevel` → battery, `ignition` →
 * acc, `result` → command reply text; `speed`/`course`/`altitude` are Position fields.
 */

import type { DeviceMessage, Position } from "../types.ts";

export interface FixtureExpect {
  kind: "null" | "notnull" | "position" | "positions" | "attributes" | "attribute";
  time?: string;
  valid?: boolean;
  latitude?: number;
  longitude?: number;
  key?: string;
  value?: unknown;
}

const COORDINATE_TOLERANCE = 1e-5;
const EARLIEST_FIX = Date.UTC(2000, 0, 1);

export function checkExpectation(
  expect: FixtureExpect,
  messages: DeviceMessage[],
): string | undefined {
  const positions = messages.flatMap((message) =>
    message.type === "position"
      ? [message.position]
      : message.type === "positions"
      ? message.positions
      : []
  );
  switch (expect.kind) {
    case "null":
      return positions.length === 0 ? undefined : "expected no position";
    case "notnull":
      return messages.some((message) => message.type !== "identify")
        ? undefined
        : "expected a message";
    case "positions":
      return positions.length > 0 ? undefined : "expected positions";
    case "position":
      return positions.length > 0 ? checkPosition(expect, positions[0]) : "expected a position";
    case "attributes":
      return messages.some(hasAttributes) ? undefined : "expected attributes";
    case "attribute": {
      const actual = findAttribute(messages, expect.key ?? "");
      return actual === expect.value
        ? undefined
        : `attribute ${expect.key}: expected ${JSON.stringify(expect.value)}, got ${
          JSON.stringify(actual)
        }`;
    }
  }
}

function checkPosition(expect: FixtureExpect, position: Position): string | undefined {
  const failures: string[] = [];
  if (expect.time !== undefined) {
    const expected = new Date(expect.time.replace(" ", "T") + "Z").getTime();
    if (position.time.getTime() !== expected) {
      failures.push(`time ${position.time.toISOString()} != ${expect.time}`);
    }
  } else if (!(position.time.getTime() > EARLIEST_FIX)) {
    failures.push(`implausible time ${position.time.toISOString()}`);
  }
  if (expect.valid !== undefined && position.valid !== expect.valid) {
    failures.push(`valid ${position.valid} != ${expect.valid}`);
  }
  for (const key of ["latitude", "longitude"] as const) {
    const wanted = expect[key];
    if (wanted !== undefined && !(Math.abs(position[key] - wanted) <= COORDINATE_TOLERANCE)) {
      failures.push(`${key} ${position[key]} != ${wanted}`);
    }
  }
  if (Math.abs(position.latitude) > 90 || Math.abs(position.longitude) > 180) {
    failures.push("coordinates out of range");
  }
  return failures.length ? failures.join("; ") : undefined;
}

function hasAttributes(message: DeviceMessage): boolean {
  if (message.type === "position") return Object.keys(message.position.attributes).length > 0;
  if (message.type === "positions") {
    return message.positions.some((position) => Object.keys(position.attributes).length > 0);
  }
  return message.type === "status" && Object.keys(message.attributes).length > 0;
}

function findAttribute(messages: DeviceMessage[], key: string): unknown {
  for (const message of messages) {
    const value = attributeOf(message, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

function attributeOf(message: DeviceMessage, key: string): unknown {
  switch (message.type) {
    case "position":
      return positionAttribute(message.position, key);
    case "positions":
      return message.positions.map((position) => positionAttribute(position, key))
        .find((value) => value !== undefined);
    case "status":
      if (key === "batteryLevel") return message.battery;
      if (key === "ignition") return message.acc;
      return message.attributes[key];
    case "commandReply":
      return key === "result" ? message.text : undefined;
    default:
      return undefined;
  }
}

function positionAttribute(position: Position, key: string): unknown {
  switch (key) {
    case "speed":
    case "course":
    case "altitude":
      return position[key];
    case "batteryLevel":
      return position.battery;
    case "ignition":
      return position.acc;
    default:
      return position.attributes[key];
  }
}

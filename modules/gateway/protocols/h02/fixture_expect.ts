/**
 * How H02 output answers the fixture expectations (shared/fixtures/protocols/README.md), for
 * the shared conformance harness (../test_support.ts).
 *
 * Traccar attribute names map to this contract: `batteryLevel` → battery, `ignition` →
 * acc, `result` → command reply text; `speed`/`course`/`altitude` are Position fields.
 */

import type { DeviceMessage, Position } from "../types.ts";
import { differs, type Reading } from "../test_support.ts";

export const h02Reading: Reading<DeviceMessage[]> = {
  nothing: (messages) => positionsOf(messages).length === 0 ? undefined : "expected no position",
  something: (messages) =>
    messages.some((message) => message.type !== "identify") ? undefined : "expected a message",
  position: (messages) => positionsOf(messages)[0],
  positions: positionsOf,
  attributes: (messages) => messages.some(hasAttributes),
  attribute(messages, key, expected) {
    const actual = findAttribute(messages, key);
    return actual === expected ? undefined : differs(`attribute ${key}`, actual, expected);
  },
};

function positionsOf(messages: DeviceMessage[]): Position[] {
  return messages.flatMap((message) =>
    message.type === "position"
      ? [message.position]
      : message.type === "positions"
      ? message.positions
      : []
  );
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

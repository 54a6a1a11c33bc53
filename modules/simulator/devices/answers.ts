/** What a simulated tracker answers to a text command, given its current state. */
import type { DeviceFix } from "../fix.ts";

const SIGNAL_WORDS = ["No signal", "Weak", "Weak", "Good", "Strong"];

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** `2024-05-17 08:30:15` (UTC). */
export function dateTimeText(t: Date): string {
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${
    pad(t.getUTCHours())
  }:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

/**
 * GT06-style answers (the text of the 0x21 reply). STATUS# and WHERE# follow the wording of
 * real units (WHERE# is also what the decoder turns into a position); other commands get a
 * generic success line.
 */
export function gt06Answer(command: string, fix: DeviceFix): string {
  const name = command.trim().replace(/#$/, "").split(",")[0].toUpperCase();
  switch (name) {
    case "STATUS":
      return `Battery:${fix.battery}%,GPRS:Link Up,GSM Signal Level:${
        SIGNAL_WORDS[fix.signal] ?? "Weak"
      },GPS:${fix.valid ? "Successful positioning" : "Positioning failed"},ACC:${
        fix.acc ? "ON" : "OFF"
      },Defense:OFF`;
    case "WHERE":
    case "POSITION":
      return `Current position!Lat:${fix.latitude >= 0 ? "N" : "S"}${
        Math.abs(fix.latitude).toFixed(6)
      },Lon:${fix.longitude >= 0 ? "E" : "W"}${Math.abs(fix.longitude).toFixed(6)},Course:${
        Math.round(fix.course)
      },Speed:${Math.round(fix.speedKmh)},DateTime:${dateTimeText(fix.time)}`;
    case "DYD":
    case "RELAY":
      return command.includes(",0") && name === "RELAY"
        ? "Restore fuel supply:Success!"
        : "Cut off the fuel supply:Success!";
    case "HFYD":
      return "Restore fuel supply:Success!";
    case "VERSION":
      return "[VERSION]GT06N_SIM_V1.0";
    default:
      return `${name}:OK`;
  }
}

/** H02 V4 confirmations: the command name, then a result word the decoder understands. */
export function h02Answer(command: string): string[] {
  const name = command.split(",")[0].toUpperCase();
  return name === "S20" ? [name, "DONE"] : [name, "OK"];
}

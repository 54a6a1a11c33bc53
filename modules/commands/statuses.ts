/** Spec §4 command states, in the order pages list them (no imports: pages use it too). */
export const COMMAND_STATUSES = [
  "toBeSent",
  "sending",
  "succeeded",
  "failed",
  "cancelled",
  "executed",
  "waitingExecution",
  "timeout",
] as const;

export type CommandStatus = typeof COMMAND_STATUSES[number];

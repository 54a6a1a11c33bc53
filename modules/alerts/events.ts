import type { AlertRecord } from "./store.ts";

/** An alert was stored: a device alarm (by the gateway) or one the alert engine raised. */
export interface AlertRaised {
  type: "alert";
  imei: string;
  userId: string;
  alert: AlertRecord;
}

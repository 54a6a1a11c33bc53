/** The auto reports' stored records (server side; the API shapes are in ./model.ts). */
import type { ReportName } from "../reports/model.ts";
import type { AutoReportFrequency, AutoReportRun, AutoReportTimeField } from "./model.ts";

export interface AutoReportRecord {
  id: string;
  /** The account that created it (a virtual user's own id): it sees, runs and gets the files. */
  ownerId: string;
  /** The account whose devices a device-model selection covers (default: the owner's). */
  userId: string;
  name: string;
  reportType: ReportName;
  frequency: AutoReportFrequency;
  executionTime: string;
  imeis: string[];
  mcType: string | null;
  emails: string[];
  includeSubAccounts: boolean;
  batteryThreshold: number | null;
  timeField: AutoReportTimeField | null;
  params: Record<string, unknown>;
  /** Epoch ms. */
  createdAt: number;
  updatedAt: number;
}

/** One run as stored: the API's row plus its time-ordered id. */
export interface RunRecord extends AutoReportRun {
  id: string;
}

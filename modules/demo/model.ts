/**
 * Demo (trial) accounts (spec console §1 demo applicant, §5 consent): what an application
 * carries and the limits of the public form. Browser code imports this file only.
 */
export const DEMO_STATUSES = ["pending", "approved", "rejected"] as const;
export type DemoStatus = typeof DEMO_STATUSES[number];

/** Field limits shared by the form and the API schema. */
export const DEMO_LIMITS = {
  name: 50,
  company: 100,
  department: 100,
  phone: 20,
  email: 100,
  region: 100,
  reason: 200,
} as const;

/** Applications per client address per minute (the form is public, each one a store write). */
export const DEMO_APPLIES_PER_MINUTE = 5;
/** How long the mailed set-password link works. */
export const DEMO_LINK_HOURS = 72;

export interface DemoApplication {
  id: string;
  name: string;
  company: string;
  department: string;
  phone: string;
  email: string;
  region: string;
  status: DemoStatus;
  /** ISO time of the application. */
  createdAt: string;
  /** The applicant's address (who asked, for the reviewer). */
  ip: string;
  decidedAt: string | null;
  /** Login of the administrator who decided. */
  decidedBy: string | null;
  /** Set on approval: the trial account. */
  accountId: string | null;
  account: string | null;
  /** Last day of the trial (YYYY-MM-DD), set on approval. */
  trialUntil: string | null;
  reason: string;
}

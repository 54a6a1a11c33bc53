import { z } from "zod";

/** Process configuration, read once from the environment at start-up. */
const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

export const configSchema = z.object({
  PORT: port(8000),
  HOSTNAME: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  ADMIN_PASSWORD: z.string().min(8).max(50).regex(/[A-Za-z]/, "must contain a letter")
    .regex(/[0-9]/, "must contain a digit").optional(),
  CAPTCHA: z.enum(["on", "off"]).default("on"),
  GT06_PORT: port(5023),
  JT808_PORT: port(5015),
  H02_PORT: port(5013),
  OSMAND_PORT: port(5055),
  /** JT/T 1078 audio/video streams of dashcams (live and playback, modules/video/media). */
  JT1078_PORT: port(1078),
  /** T/JSATL12 alarm attachments (0x1210-0x1212 and file data) that terminals upload after 0x9208. */
  JT_ATTACHMENT_PORT: port(1079),
  /**
   * The host name terminals send media to (JT/T 1078 0x9101/0x9201, attachments 0x9208), for a
   * server behind NAT; unset: HOSTNAME when it is one address, else this machine's address on
   * the device's side (loopback for a loopback device, the first non-loopback IPv4 otherwise).
   */
  MEDIA_PUBLIC_HOST: z.string().trim().min(1).max(255).optional(),
  /** The JT/T 1078 port announced to terminals (a NAT's forwarded port); unset: JT1078_PORT. */
  MEDIA_PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * Worker threads serving device sockets (reading, decoding, acknowledging), sharing the
   * ports; 0 serves them on the main thread. Default: none on 1-2 cores (handing each batch
   * to the main thread costs more than it saves there), else one per core beyond the first
   * (the main thread commits), at most 4. See docs/decisions.md.
   */
  GATEWAY_WORKERS: z.coerce.number().int().min(0).max(32).default(
    navigator.hardwareConcurrency <= 2 ? 0 : Math.min(4, navigator.hardwareConcurrency - 1),
  ),
  /**
   * How device sockets are served: "epoll" (libc's epoll through FFI: Linux on x86-64 or
   * arm64, an IP address as HOSTNAME, FFI allowed; ~3× less CPU per frame), "deno" (Deno's
   * own sockets, everywhere), "auto" (epoll where it can). See docs/decisions.md.
   */
  GATEWAY_IO: z.enum(["auto", "epoll", "deno"]).default("auto"),
  /** A device connection silent this long is closed (half-open sockets). */
  DEVICE_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /**
   * A device connection that has not identified itself (a valid login or registration)
   * this long after connecting is closed: idle sockets must not pile up and take the
   * process's file descriptors.
   */
  DEVICE_LOGIN_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Most device connections (the three TCP ports together); unset: the descriptor limit
   * less a reserve for HTTP, the store and files (lib/net/fd_limits.ts).
   */
  MAX_DEVICE_CONNECTIONS: z.coerce.number().int().min(1).max(10_000_000).optional(),
  /**
   * JT/T 808 credentials: "strict" issues a random auth code per registration (0x0100) and
   * stores nothing before a valid authentication (0x0102) on the connection; "lenient" keeps
   * the old behaviour (reports accepted without registration, the auth code is the phone
   * number) for fleets whose terminals never register.
   */
  JT808_AUTH: z.enum(["strict", "lenient"]).default("strict"),
  /**
   * A device connection heard from within this many seconds is not replaced by a second login
   * without credentials (GT06, H02, lenient JT/T 808): that login is refused and logged.
   */
  DEVICE_TAKEOVER_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Minutes without any message before a device counts as offline. */
  OFFLINE_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** Lifetime of a login session in hours. */
  SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(24 * 7),
  /** Set to "on" behind TLS so cookies get the Secure flag. */
  SECURE_COOKIES: z.enum(["on", "off"]).default("off"),
  /** Lines below this level are not logged (lib/log.ts). */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /**
   * Bearer token for GET /metrics; unset: /metrics answers only loopback clients (127.0.0.0/8,
   * ::1), e.g. a Prometheus on the same host or behind a local proxy.
   */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Outgoing mail (alert mail, email verification, password recovery); unset: mail off. */
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: port(587),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASS: z.string().min(1).optional(),
  SMTP_FROM: z.string().min(3).default("Tracking Platform <noreply@localhost>"),
  /** "on": TLS from the first byte (port 465); "off": STARTTLS when the server offers it. */
  SMTP_SECURE: z.enum(["on", "off"]).default("off"),
  /** "off" stops the alert engine (fences, thresholds); device alarms are still recorded. */
  ALERT_ENGINE: z.enum(["on", "off"]).default("on"),
  /**
   * "off" leaves the motion analysis (trips, stops, day summaries for the reports) out of the
   * position pipeline; reports then read only what was analysed before. Meant for measuring its
   * cost on ingest (`deno task bench:ingest --motion off`).
   */
  MOTION_ANALYSIS: z.enum(["on", "off"]).default("on"),
  /**
   * Optional Nominatim-compatible server for street addresses (`…/reverse?format=jsonv2`),
   * asked at most GEOCODER_RATE times a second, cached; unset: the embedded place dataset.
   */
  GEOCODER_URL: z.string().refine(
    (u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
    "must be an http(s):// address",
  ).refine((u) => !URL.canParse(u) || !new URL(u).search && !new URL(u).hash, "must have no query")
    .optional(),
  /** Requests per second to GEOCODER_URL (Nominatim's public policy: at most 1). */
  GEOCODER_RATE: z.coerce.number().min(0.01).max(100).default(1),
  /**
   * Optional OSRM-compatible routing server for road-snapped planned routes (fleet):
   * `…/route/v1/driving/lng,lat;…?overview=full&geometries=geojson`. Unset: straight legs.
   */
  ROUTING_URL: z.string().refine(
    (u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
    "must be an http(s):// address",
  ).refine((u) => !URL.canParse(u) || !new URL(u).search && !new URL(u).hash, "must have no query")
    .optional(),
  /** First webhook retry delay; each further retry doubles it. */
  WEBHOOK_RETRY_MS: z.coerce.number().int().min(1).max(600_000).default(5_000),
  /**
   * "on" lets webhooks call loopback, private, link-local and metadata addresses (a site whose
   * receivers are on its own network, tests); "off" refuses them at save and at delivery.
   */
  WEBHOOK_ALLOW_PRIVATE: z.enum(["on", "off"]).default("off"),
  /**
   * Optional HTTP SMS gateway: each SMS is POSTed as JSON `{to, text}`; a 2xx answer is sent.
   * Unset: no SMS (the default). Each SMS costs credits (modules/credits).
   */
  SMS_URL: z.string().refine(
    (u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
    "must be an http(s):// address",
  ).optional(),
  /** Alert mails and webhook calls free per account and UTC month; each one beyond costs a credit. */
  FREE_PUSHES_PER_MONTH: z.coerce.number().int().min(0).max(100_000_000).default(1000),
  /**
   * Open API (`POST /route/rest`, issue 22): calls per second per app key (a token bucket that
   * holds OPENAPI_KEY_BURST calls; over it: 1006) and per client address (over it: 1005).
   * `jimi.oauth.token.get` counts like any call.
   */
  OPENAPI_KEY_RATE: z.coerce.number().min(1).max(1_000_000).default(50),
  OPENAPI_KEY_BURST: z.coerce.number().int().min(1).max(1_000_000).default(100),
  OPENAPI_IP_RATE: z.coerce.number().int().min(1).max(1_000_000).default(200),
  /** "on" accepts unsigned `v=0.9` calls (a trusted network only); "off" refuses them. */
  OPENAPI_ALLOW_UNSIGNED: z.enum(["on", "off"]).default("off"),
  /** Length of a demo (trial) account in days, the approval day included (modules/demo). */
  DEMO_TRIAL_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Login of the account demo accounts are created under; unset: the approving administrator. */
  DEMO_PARENT_ACCOUNT: z.string().trim().min(1).max(50).optional(),
  /**
   * Cluster mode (issue 23), with NATS_URL: the PostgreSQL (≥ 15) database every instance
   * shares, `postgres://user:pass@host:port/db` (`?sslmode=` honoured). The database must exist;
   * the product creates its schemas. Unset: single mode on the KV file under DATA_DIR.
   */
  DATABASE_URL: z.string().trim().refine(
    (u) => URL.canParse(u) && /^postgres(ql)?:$/.test(new URL(u).protocol) && !!new URL(u).host,
    "must be a postgres:// or postgresql:// address with a host",
  ).optional(),
  /** Cluster mode, with DATABASE_URL: the NATS servers, comma-separated `nats://host:port`. */
  NATS_URL: z.string().trim().refine(
    (list) => list.split(",").map((u) => u.trim()).filter(Boolean).length > 0,
    "must list at least one nats:// address",
  ).refine(
    (list) =>
      list.split(",").map((u) => u.trim()).filter(Boolean).every((u) =>
        URL.canParse(u) && /^(nats|tls):$/.test(new URL(u).protocol) && !!new URL(u).host
      ),
    "must be nats://host:port addresses separated by commas",
  ).optional(),
  /** Days of positions kept (older ones are dropped by day); unset: everything is kept. */
  POSITION_RETENTION_DAYS: z.coerce.number().int().min(1).max(100_000).optional(),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const known = Object.fromEntries(
    Object.keys(configSchema.shape).map((k) => [k, env[k] === "" ? undefined : env[k]]),
  );
  const parsed = configSchema.safeParse(known);
  if (parsed.success) return checkClusterPair(parsed.data);
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name}=${JSON.stringify(env[name] ?? "")}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
}

/** Cluster mode needs both the database and NATS: one without the other names the missing one. */
function checkClusterPair(config: Config): Config {
  if (!!config.DATABASE_URL === !!config.NATS_URL) return config;
  const [given, missing] = config.DATABASE_URL
    ? ["DATABASE_URL", "NATS_URL"]
    : ["NATS_URL", "DATABASE_URL"];
  throw new ConfigError(
    `Invalid configuration:\n  ${missing} is not set: cluster mode needs it with ${given} ` +
      `(set both, or neither for single mode)`,
  );
}

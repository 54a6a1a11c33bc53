/** White-label configuration per host name (spec §3 "Domain configuration"). */
export interface DomainConfig {
  host: string;
  domainTitle: string;
  defaultLanguage: "en" | "zh";
  themeColor: string;
  hoverColor: string;
  selectedColor: string;
  view: string;
  resourceDomain: string;
  /** Paths under tracker/domain (attr1 under tracker/domain/background); "" when unset. */
  attr1: string;
  twoDimensionalCodeImage: string;
  domainLogin: string;
  loginPageIllustration: string;
  demoPageIllustration: string;
  siteIcon: string;
  updatedAt: string;
}

export const DEFAULT_DOMAIN: DomainConfig = {
  host: "*",
  domainTitle: "Tracking Platform",
  defaultLanguage: "en",
  themeColor: "#3b7aff",
  hoverColor: "#2f62cc",
  selectedColor: "#e8f0ff",
  view: "newlogin",
  resourceDomain: "",
  attr1: "",
  twoDimensionalCodeImage: "",
  domainLogin: "",
  loginPageIllustration: "",
  demoPageIllustration: "",
  siteIcon: "",
  updatedAt: "",
};

const key = (host: string) => ["domains", host.toLowerCase()];
/** The Host header is chosen by the client: cap the cache so random names cannot grow it. */
const CACHE_LIMIT = 500;

export class DomainStore {
  private cache = new Map<string, DomainConfig>();

  constructor(private readonly kv: Deno.Kv) {}

  /** The configuration of a host, falling back to "*" and then to the defaults. */
  async forHost(host: string): Promise<DomainConfig> {
    const name = host.toLowerCase().replace(/:\d+$/, "");
    const hit = this.cache.get(name);
    if (hit) return hit;
    const own = (await this.kv.get<DomainConfig>(key(name))).value;
    const fallback = own ? null : (await this.kv.get<DomainConfig>(key("*"))).value;
    const config = { ...DEFAULT_DOMAIN, ...(fallback ?? {}), ...(own ?? {}) };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(name, config);
    return config;
  }

  async save(config: DomainConfig): Promise<void> {
    await this.kv.set(key(config.host), config);
    this.cache.clear();
  }

  async remove(host: string): Promise<void> {
    await this.kv.delete(key(host));
    this.cache.clear();
  }

  async list(): Promise<DomainConfig[]> {
    const out: DomainConfig[] = [];
    for await (const e of this.kv.list<DomainConfig>({ prefix: ["domains"] })) out.push(e.value);
    return out;
  }
}

/** Spec: an image field is the resource domain plus a path under tracker/domain, or "". */
export const IMAGE_FIELDS = [
  "attr1",
  "twoDimensionalCodeImage",
  "domainLogin",
  "loginPageIllustration",
  "demoPageIllustration",
  "siteIcon",
] as const;
export type ImageField = typeof IMAGE_FIELDS[number];

export function imageUrl(config: DomainConfig, field: ImageField): string {
  const path = config[field];
  if (!path) return "";
  const folder = field === "attr1" ? "tracker/domain/background" : "tracker/domain";
  return `${config.resourceDomain.replace(/\/$/, "")}/${folder}/${path.replace(/^\//, "")}`;
}

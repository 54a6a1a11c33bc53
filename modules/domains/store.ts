import type { DomainConfig, DomainImageType } from "./model.ts";
import { DEFAULT_DOMAIN } from "./model.ts";

export {
  DEFAULT_DOMAIN,
  type DomainConfig,
  IMAGE_FIELDS,
  type ImageField,
  imageUrl,
} from "./model.ts";

/** An uploaded white-label image; the bytes are a file under DATA_DIR/domains/images. */
export interface DomainImage {
  /** File name: random id and extension ("3f…9a.png"). */
  name: string;
  type: DomainImageType;
  size: number;
  width: number;
  height: number;
  /** The name the administrator's file had (shown, never used as a path). */
  originalName: string;
  uploadedBy: string;
  uploadedAt: string;
}

const key = (host: string) => ["domains", host.toLowerCase()];
const imageKey = (name: string) => ["domainImages", name];
/** The Host header is chosen by the client: cap the cache so random names cannot grow it. */
const CACHE_LIMIT = 500;

export class DomainStore {
  private cache = new Map<string, DomainConfig>();
  /** Told the hosts saved or removed here (cluster mode's sync clears the others' caches). */
  onChanged: (hosts: string[]) => void = () => {};

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
    this.onChanged([config.host]);
  }

  async remove(host: string): Promise<void> {
    await this.kv.delete(key(host));
    this.cache.clear();
    this.onChanged([host]);
  }

  /** Another instance changed a domain: configurations are read again when next asked. */
  reload(_hosts: string[]): Promise<void> {
    this.cache.clear();
    return Promise.resolve();
  }

  async list(): Promise<DomainConfig[]> {
    const out: DomainConfig[] = [];
    for await (const e of this.kv.list<DomainConfig>({ prefix: ["domains"] })) out.push(e.value);
    return out;
  }

  async saveImage(image: DomainImage): Promise<void> {
    await this.kv.set(imageKey(image.name), image);
  }

  async image(name: string): Promise<DomainImage | null> {
    return (await this.kv.get<DomainImage>(imageKey(name))).value;
  }

  async removeImage(name: string): Promise<void> {
    await this.kv.delete(imageKey(name));
  }

  async images(): Promise<DomainImage[]> {
    const out: DomainImage[] = [];
    for await (const e of this.kv.list<DomainImage>({ prefix: ["domainImages"] })) {
      out.push(e.value);
    }
    return out;
  }
}

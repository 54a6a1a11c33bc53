/**
 * The report names each user keeps on /reportList ("my reports"): one small record per
 * logged-in account (a virtual account has its own), `["myReports", accountId]` → names.
 */
export class MyReportsStore {
  constructor(private readonly kv: Deno.Kv) {}

  async get(accountId: string): Promise<string[] | null> {
    return (await this.kv.get<string[]>(["myReports", accountId])).value;
  }

  async set(accountId: string, names: string[]): Promise<void> {
    await this.kv.set(["myReports", accountId], names);
  }
}

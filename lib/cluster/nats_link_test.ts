/**
 * NatsLink against a real nats-server (Debian's): two links as two instances would hold them.
 * Each test starts its own server on its own port, so one can be killed and restarted.
 */
import assert from "node:assert/strict";
import { freePort } from "../../tests/helpers/server.ts";
import { NatsLink, natsServers, natsTarget } from "./nats_link.ts";
import { LinkRemoteError, LinkTimeout } from "./types.ts";
import { UnreachableError } from "../net/unreachable.ts";
import { guardStraySocketResets } from "../net/stray_socket_errors.ts";

// As cluster mode does (lib/cluster/open.ts): a refused login resets the client's socket after
// it dropped its listeners, which would otherwise end this test process.
guardStraySocketResets();

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A nats-server on a fixed port, startable again after a kill (same port, same address). */
class NatsProcess {
  private child?: Deno.ChildProcess;
  constructor(readonly port = freePort()) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** `auth`: the server accepts only this user and password. */
  async start(auth?: { user: string; pass: string }): Promise<void> {
    const login = auth ? ["--user", auth.user, "--pass", auth.pass] : [];
    this.child = new Deno.Command("nats-server", {
      args: ["-a", "127.0.0.1", "-p", String(this.port), ...login],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; i < 200; i++) {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port: this.port })).close();
        return;
      } catch {
        await sleep(25);
      }
    }
    throw new Error(`nats-server on ${this.port} did not start`);
  }

  async kill(): Promise<void> {
    if (!this.child) return;
    try {
      this.child.kill("SIGKILL");
    } catch { /* gone */ }
    await this.child.status;
    this.child = undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
  return Date.now() - started;
}

/** Two links to one fresh server; everything is closed after `fn`. */
async function withLinks(
  fn: (a: NatsLink, b: NatsLink, server: NatsProcess) => Promise<void>,
): Promise<void> {
  const server = new NatsProcess();
  await server.start();
  const a = await NatsLink.connect(server.url, { name: "a" });
  const b = await NatsLink.connect(server.url, { name: "b" });
  try {
    await fn(a, b, server);
  } finally {
    await a.close();
    await b.close();
    await server.kill();
  }
}

Deno.test("NatsLink: NATS_URL lists servers separated by commas", () => {
  assert.deepEqual(natsServers("nats://a:4222, nats://b:4222,,"), [
    "nats://a:4222",
    "nats://b:4222",
  ]);
});

Deno.test("NatsLink: a wildcard subscriber on one link gets what the other publishes", async () => {
  await withLinks(async (a, b) => {
    const got: string[] = [];
    const unsubscribe = a.subscribe("tp.live.a.>", (data, subject) => {
      got.push(`${subject}=${dec.decode(data)}`);
    });
    const exact: string[] = [];
    a.subscribe("tp.live.a", (_data, subject) => exact.push(subject));
    await a.flush(); // the server knows the subscriptions
    b.publish("tp.live.a.b.c", enc.encode("1"));
    b.publish("tp.live.x.b", enc.encode("2")); // another subtree
    b.publish("tp.live.a", enc.encode("3")); // `>` needs one more token
    b.publish("tp.live.a.d", enc.encode("4"));
    await waitFor("two events", () => got.length === 2 && exact.length === 1);
    await sleep(100);
    assert.deepEqual(got, ["tp.live.a.b.c=1", "tp.live.a.d=4"]);
    assert.deepEqual(exact, ["tp.live.a"]);
    unsubscribe();
    await a.flush();
    b.publish("tp.live.a.e", enc.encode("5"));
    await sleep(150);
    assert.equal(got.length, 2, "nothing after unsubscribe");
  });
});

Deno.test("NatsLink: request/reply between links, errors and timeouts", async () => {
  await withLinks(async (a, b) => {
    b.reply("tp.cmd.b", (data) => {
      const text = dec.decode(data);
      if (text === "fail") return Promise.reject(new Error("device offline"));
      return Promise.resolve(enc.encode(text.toUpperCase()));
    });
    await b.flush(); // the server knows the responder
    assert.equal(dec.decode(await a.request("tp.cmd.b", enc.encode("hello"), 2_000)), "HELLO");
    await assert.rejects(
      a.request("tp.cmd.b", enc.encode("fail"), 2_000),
      (e) => e instanceof LinkRemoteError && e.message === "device offline",
    );
    // Nobody subscribes: NATS says "no responders" at once, still a LinkTimeout.
    const started = Date.now();
    await assert.rejects(a.request("tp.cmd.nobody", enc.encode("x"), 3_000), LinkTimeout);
    assert.ok(Date.now() - started < 2_000, "no responders is answered without waiting");
    // A responder that never answers: LinkTimeout after the given time.
    b.reply("tp.cmd.slow", () => new Promise(() => {}));
    await b.flush();
    const slowStart = Date.now();
    await assert.rejects(a.request("tp.cmd.slow", enc.encode("x"), 300), LinkTimeout);
    const waited = Date.now() - slowStart;
    assert.ok(waited >= 250 && waited < 2_000, `timed out after ${waited} ms`);
  });
});

Deno.test("NatsLink: two responders on one subject, each request answered once", async () => {
  await withLinks(async (a, b) => {
    let calls = 0;
    const answer = (who: string) => () => {
      calls++;
      return Promise.resolve(enc.encode(who));
    };
    a.reply("tp.media.shared", answer("a"));
    b.reply("tp.media.shared", answer("b"));
    await Promise.all([a.flush(), b.flush()]);
    for (let i = 0; i < 20; i++) {
      const who = dec.decode(await a.request("tp.media.shared", new Uint8Array(), 2_000));
      assert.ok(who === "a" || who === "b");
    }
    await sleep(100);
    assert.equal(calls, 20, "a queue group: one responder per request");
  });
});

Deno.test("NatsLink: state goes down when the server dies and up when it is back", async () => {
  await withLinks(async (a, b, server) => {
    const states: string[] = [];
    a.onState((s) => states.push(s));
    assert.equal(a.state(), "up");
    await server.kill();
    await waitFor("a down", () => a.state() === "down");
    await waitFor("b down", () => b.state() === "down");
    await sleep(1_500); // a few failed reconnects: the delay grows
    await server.start();
    const back = await waitFor("a up", () => a.state() === "up");
    await waitFor("b up", () => b.state() === "up");
    assert.ok(back < 5_000, `reconnected ${back} ms after the restart`);
    assert.deepEqual(states, ["down", "up"]);
    // Messages flow again, subscriptions made before the outage included.
    const got: string[] = [];
    b.subscribe("tp.sync.devices", (data) => got.push(dec.decode(data)));
    await b.flush();
    a.publish("tp.sync.devices", enc.encode("after"));
    await waitFor("message after reconnect", () => got.length === 1);
  });
});

Deno.test("NatsLink: a subscription made before an outage survives it", async () => {
  await withLinks(async (a, b, server) => {
    const got: string[] = [];
    b.subscribe("tp.session.close.*", (_d, subject) => got.push(subject));
    await server.kill();
    await server.start();
    await waitFor("both up", () => a.state() === "up" && b.state() === "up", 15_000);
    await b.flush(); // its subscriptions are sent again on reconnect
    a.publish("tp.session.close.i1", new Uint8Array());
    await waitFor("message", () => got.length === 1);
    assert.deepEqual(got, ["tp.session.close.i1"]);
  });
});

Deno.test("NatsLink: several servers listed, the first dead: connects to a live one", async () => {
  const dead = freePort();
  const server = new NatsProcess();
  await server.start();
  try {
    const link = await NatsLink.connect(`nats://127.0.0.1:${dead},${server.url}`);
    assert.equal(link.state(), "up");
    await link.close();
  } finally {
    await server.kill();
  }
});

Deno.test("NatsLink: no reachable server at start-up is an UnreachableError", async () => {
  const port = freePort();
  await assert.rejects(
    NatsLink.connect(`nats://user:secret@127.0.0.1:${port}`, { connectTimeoutMs: 2_000 }),
    (e) =>
      e instanceof UnreachableError && e.message.includes(`127.0.0.1:${port}`) &&
      !e.message.includes("secret"),
  );
});

Deno.test("NatsLink: credentials in NATS_URL: user and password, or a token", () => {
  assert.deepEqual(natsTarget("nats://tp:s%3Acret@a:4222, nats://b:4222"), {
    servers: ["nats://a:4222", "nats://b:4222"],
    user: "tp",
    pass: "s:cret",
  });
  assert.deepEqual(natsTarget("tls://t0ken@a:4222"), { servers: ["tls://a:4222"], token: "t0ken" });
  assert.deepEqual(natsTarget("nats://a:4222"), { servers: ["nats://a:4222"] });
});

Deno.test("NatsLink: credentials refused on a reconnect (rotated): the link waits, down, and comes back", async () => {
  const server = new NatsProcess();
  const auth = { user: "tp", pass: "first/secret" };
  await server.start(auth);
  const url = `nats://tp:${encodeURIComponent(auth.pass)}@127.0.0.1:${server.port}`;
  try {
    await assert.rejects(
      NatsLink.connect(`nats://tp:wrong@127.0.0.1:${server.port}`, { connectTimeoutMs: 2_000 }),
      (e) => e instanceof UnreachableError && /Authorization/i.test(e.message),
    );
    const link = await NatsLink.connect(url);
    try {
      assert.equal(link.state(), "up");
      await server.kill();
      await server.start({ user: "tp", pass: "rotated" });
      await waitFor("down", () => link.state() === "down");
      await sleep(3_000); // several refused reconnects: the process lives on
      assert.equal(link.state(), "down");
      await server.kill();
      await server.start(auth);
      await waitFor("up again", () => link.state() === "up", 10_000);
    } finally {
      await link.close();
    }
  } finally {
    await server.kill();
  }
});

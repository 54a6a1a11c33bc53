/**
 * bench:sockets — what the gateway's two socket transports cost per frame, without decoding
 * or storage: a server process answers every 40-byte frame with a 10-byte reply through
 * `DenoTransport` (Deno.listen) or `EpollTransport` (libc epoll + send thread), while 5,000
 * loopback connections (the ingest bench's FFI fleet) each keep one frame in flight.
 * Prints frames/s and the server's CPU per frame for each transport.
 *
 *   deno task bench:sockets [--seconds 8] [--devices 5000]
 */
import { DenoTransport } from "../../modules/gateway/transport/deno_transport.ts";
import { EpollTransport } from "../../modules/gateway/transport/epoll_transport.ts";
import type { SocketTransport } from "../../modules/gateway/transport/transport.ts";
import { LoopbackFleet } from "./loopback_fleet.ts";

const FRAME = 40, REPLY = 10;
const option = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};

if (Deno.args[0] === "serve") {
  // The server process: echo a reply per whole frame, as a link acknowledges each read.
  const transport: SocketTransport = Deno.args[1] === "epoll"
    ? new EpollTransport()
    : new DenoTransport();
  const reply = new Uint8Array(REPLY).fill(7);
  const listener = transport.listen("127.0.0.1", 0, false, (socket) => {
    let carry = 0;
    return {
      data(bytes) {
        carry += bytes.length;
        const frames = Math.floor(carry / FRAME);
        carry -= frames * FRAME;
        for (let i = 0; i < frames; i++) socket.write(reply);
        return Promise.resolve(true);
      },
      closed() {},
    };
  });
  console.log(listener.port);
} else {
  if (!LoopbackFleet.supported()) {
    console.log("bench:sockets needs Linux on x86-64 or arm64 (the FFI load generator)");
    Deno.exit(0);
  }
  const seconds = option("seconds", 8), devices = option("devices", 5000);
  for (const name of ["deno", "epoll"]) {
    const server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", import.meta.filename!, "serve", name],
      stdout: "piped",
    }).spawn();
    const { value } = await server.stdout.getReader().read();
    const port = Number(new TextDecoder().decode(value).trim());
    const fleet = new LoopbackFleet();
    fleet.start();
    const frame = new Uint8Array(FRAME).fill(1);
    let replies = 0;
    for (let i = 0; i < devices; i++) {
      let pending = 0, fd = -1;
      fd = await fleet.connect(port, {
        onData(bytes) {
          pending += bytes.length;
          for (; pending >= REPLY; pending -= REPLY) {
            replies++;
            fleet.write(fd, frame);
          }
        },
        onClosed() {},
      });
      fleet.write(fd, frame);
    }
    /** CPU seconds of the whole process, or of its main thread (tid = pid). */
    const cpuSeconds = (path: string) => {
      const fields = Deno.readTextFileSync(path).split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks of 10 ms
    };
    const processStat = `/proc/${server.pid}/stat`;
    const mainStat = `/proc/${server.pid}/task/${server.pid}/stat`;
    await new Promise((r) => setTimeout(r, 2000));
    const r0 = replies, c0 = cpuSeconds(processStat), m0 = cpuSeconds(mainStat);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const frames = replies - r0, wall = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(processStat) - c0, main = cpuSeconds(mainStat) - m0;
    console.log(
      `${name.padEnd(5)}: ${Math.round(frames / wall).toLocaleString("en")} frames/s; server CPU ${
        Math.round(100 * cpu / wall)
      } % (main thread ${Math.round(100 * main / wall)} %), ${
        (cpu / frames * 1e6).toFixed(1)
      } µs per frame (main thread ${(main / frames * 1e6).toFixed(1)} µs)`,
    );
    server.kill();
    await server.status;
    await fleet.close();
  }
}

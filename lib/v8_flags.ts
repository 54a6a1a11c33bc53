/**
 * V8 flags the server runs with (`deno task start`, `deno task dev`, the tests' and benches'
 * server processes). deno.json's start and compile tasks spell them out too;
 * v8_flags_test.ts and scripts/compile_task_test.ts keep them in step.
 *
 * `--no-allocation-site-pretenuring`: V8 learns that objects from some allocation sites
 * survive (device states, latest positions, their attributes — each lives one report
 * interval) and then allocates them straight in the old generation, which fills it ~3×
 * faster: at 20,000 positions/s a mark-compact every ~6 s, each the slowest second of
 * acknowledgements. Without it those objects die young, mark-compacts came every ~15-20 s
 * and the ack p99 at 20,000/s fell from 108-158 ms to 70-74 ms (docs/performance.md).
 */
export const SERVER_V8_FLAGS = ["--no-allocation-site-pretenuring"];

/** The `deno run` argument carrying SERVER_V8_FLAGS. */
export const SERVER_V8_ARG = `--v8-flags=${SERVER_V8_FLAGS.join(",")}`;

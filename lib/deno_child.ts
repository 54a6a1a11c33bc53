import { SERVER_V8_ARG } from "./v8_flags.ts";

/**
 * Arguments for a `deno` child process (the tests' servers and subprocesses, the test task's
 * passes, `deno task dev`'s server).
 *
 * With `"nodeModulesDir": "auto"`, every deno process that loads an npm package first copies the
 * linked packages (deno.json `"links"`: lib/islands/compat/react and react-dom) into node_modules
 * again, removing the old copy. A process that starts, or loads a worker, at that moment finds no
 * `react` and dies ("NotFound … react-window.cjs": a CI run lost a test to it while two passes
 * started servers side by side). A child's parent has set node_modules up already (the first npm
 * use installs the whole lockfile), so a child reads it as it is and rewrites nothing.
 */
export const SHARED_NODE_MODULES = "--node-modules-dir=manual";

/** `deno <subcommand> …` for a child process: node_modules is read, never rewritten. */
export function denoChildArgs(subcommand: string, ...rest: string[]): string[] {
  return [subcommand, SHARED_NODE_MODULES, ...rest];
}

/** `deno run` of the product's main.ts with the server's V8 flags, as a child process. */
export const RUN_MAIN_ARGS = denoChildArgs("run", "-A", SERVER_V8_ARG, "main.ts");

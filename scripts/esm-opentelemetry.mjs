// An esbuild plugin: the OpenTelemetry packages are bundled from their ES module builds (package.json's
// `module`), whose unused exports esbuild drops. Their CommonJS builds (`main`, which esbuild takes for
// Node) bring every semantic convention and both JSON and protobuf serializers whole: the chunk of
// src/cli/telemetry/otel-export.ts was 1.1 MB and took 200-450 ms to load here; from the ES builds it is a
// quarter of that. Packages with an `exports` map already resolve to their ES build for an import.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const esmOpenTelemetry = {
  name: "esm-opentelemetry",
  setup(build) {
    build.onResolve({ filter: /^@opentelemetry\/[^/]+$/ }, ({ path, resolveDir }) => {
      let manifest;
      try {
        manifest = createRequire(join(resolveDir, "x.js")).resolve(`${path}/package.json`);
      } catch {
        return undefined; // an `exports` map that hides package.json: resolved as usual
      }
      const { module, exports } = JSON.parse(readFileSync(manifest, "utf8"));
      if (exports !== undefined || typeof module !== "string") return undefined;
      return { path: join(dirname(manifest), module) };
    });
  },
};

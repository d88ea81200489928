/** The throughput baseline: a bare fastify route answering a fixed JSON body from memory. */
import { readFileSync } from "node:fs";
import Fastify from "fastify";

// Bytes, as `serve` answers a page: nothing to encode per request.
const body = readFileSync(process.argv[2] as string);
const app = Fastify({ logger: false });
app.get("/v1/report", async (_request, reply) => reply.type("application/json; charset=utf-8").send(body));
app.listen({ host: "127.0.0.1", port: 0 }).then((address) => console.log(address));
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

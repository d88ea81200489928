/** `adreport serve openapi`: prints the OpenAPI document that `serve` answers at GET /openapi.json. */
import { openApiText } from "../../contract";
import type { Context } from "../context";

export function runOpenApi(ctx: Context): void {
  ctx.io.out.write(openApiText());
}

/** The API client a command uses, from its resolved settings: one place that maps settings to the client. */
import { type ApiEvent, type Pacer, type Recorder, ReportApi } from "../../api";
import type { ResolvedSettings } from "../../config/resolve";
import type { EngineContext } from "../context";

export interface ReportApiChoices {
  /** Retries after a failed try; the `retries` setting when not given. */
  retries?: number;
  onEvent?: (event: ApiEvent) => void;
  onBytes?: ((count: number) => void) | undefined;
  recorder?: Recorder | undefined;
  /** The pace every request of the client keeps (none: as fast as --concurrency allows). */
  pacer?: Pacer | undefined;
  /** Epoch ms of --max-time: a Retry-After past it ends the run at once. */
  deadline?: number | undefined;
}

export function reportApiFor(
  ctx: Pick<EngineContext, "version" | "dispatcher" | "env">,
  settings: ResolvedSettings,
  apiKey: string,
  choices: ReportApiChoices = {},
): ReportApi {
  return new ReportApi({
    baseUrl: settings["base-url"].value,
    apiKey,
    userAgent: `adreport/${ctx.version}`,
    timeoutMs: settings.timeout.value * 1000,
    retries: choices.retries ?? settings.retries.value,
    maxPageBytes: settings["max-page-mb"].value * 1024 * 1024,
    dispatcher: ctx.dispatcher,
    route: { setting: settings.proxy.value, env: ctx.env },
    onEvent: choices.onEvent,
    onBytes: choices.onBytes,
    recorder: choices.recorder,
    pacer: choices.pacer,
    deadline: choices.deadline,
  });
}

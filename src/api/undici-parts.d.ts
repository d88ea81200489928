// Types for the two undici modules src/api/undici.ts loads directly; undici types only its index.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}

declare module "undici/lib/dispatcher/env-http-proxy-agent.js" {
  import type { EnvHttpProxyAgent } from "undici";

  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export default EnvHttpProxyAgentClass;
}

declare module "undici/lib/dispatcher/dispatcher.js" {
  import type { Dispatcher } from "undici";

  const DispatcherClass: typeof Dispatcher;
  export default DispatcherClass;
}

declare module "undici/lib/api/api-connect.js" {
  import type { Dispatcher } from "undici";
  export default function connect(
    this: Dispatcher,
    options: Dispatcher.ConnectOptions,
  ): Promise<Dispatcher.ConnectData>;
}

declare module "undici/lib/dispatcher/pool.js" {
  import type { Pool } from "undici";

  const PoolClass: typeof Pool;
  export default PoolClass;
}

/**
 * The pace of a key shared by every host that exports into one PostgreSQL database (a fleet): the shared
 * schedule of core/pace-slot.ts kept in a row of `adreport_pace`, keyed by the key's fingerprint (a hash
 * of the service's URL and the key, never the key), as the hosts' processes share it through the pace file
 * on one host (state/pace-ledger.ts). A turn is read and written in one transaction holding the row's lock
 * (an upsert), a few milliseconds; its times are the server's clock, so hosts whose clocks differ keep one
 * schedule. When the database cannot be used for it (unreachable, no right to make the table), the run
 * keeps the pace of its host alone (the file), rather than failing its export; the driver is loaded only
 * when a request has something to tell or to ask.
 */
import type { PaceLedger, SharedTurn, TurnRequest } from "../../core/pace-slot";
import type { PaceTable } from "./pace-table";

/** One pool a database URL for every account and job of this process; idle, it lets the process end. */
const pools = new Map<string, Promise<PaceTable | { refused: unknown }>>();
/** Databases whose role may not make adreport_pace that this process has said so of (once each). */
const told = new Set<string>();
const INSUFFICIENT_PRIVILEGE = "42501";

/** What a run says when its role may not make the table: the export goes on, but the pace is not shared. */
export const PACE_ALONE_NOTE =
  "requests are paced on this host alone: the role may not create the table adreport_pace (to share the pace between hosts, its owner runs: CREATE TABLE adreport_pace (key text PRIMARY KEY, tat double precision NOT NULL, every double precision NOT NULL, burst integer NOT NULL, hold double precision NOT NULL); GRANT SELECT, INSERT, UPDATE ON adreport_pace TO ROLE)";

export class PostgresPaceLedger implements PaceLedger {
  private table: Promise<PaceTable | { refused: unknown }> | undefined;
  private failed = false;

  constructor(
    private readonly url: string,
    private readonly fingerprint: string,
    private readonly connectTimeoutMs: number,
    /** The host's own ledger: what this run paces by when the database cannot be used for it. */
    private readonly alone: PaceLedger,
    /** Where a run's notes go (a role that may not make the table is said once). */
    private readonly note: (text: string) => void = () => undefined,
  ) {}

  /** Turns in a row the database failed to give. */
  private missed = 0;

  take(request: TurnRequest): Promise<SharedTurn> {
    return this.apply(request, true);
  }

  async share(request: TurnRequest): Promise<void> {
    await this.apply(request, false);
  }

  private async apply(request: TurnRequest, take: boolean): Promise<SharedTurn> {
    const alone = () => (take ? this.alone.take(request) : this.alone.share(request).then(() => free(request)));
    if (this.failed) return alone();
    this.table ??= tableAt(this.url, this.connectTimeoutMs);
    const table = await this.table;
    if ("refused" in table) {
      this.failed = true;
      if ((table.refused as { code?: unknown } | null)?.code === INSUFFICIENT_PRIVILEGE && !told.has(this.url)) {
        told.add(this.url);
        this.note(PACE_ALONE_NOTE);
      }
      return alone();
    }
    try {
      const turn = await table.apply(this.fingerprint, request, take);
      this.missed = 0;
      return turn;
    } catch {
      // A turn that failed (a lock wait cut short, a connection the pool replaces) is this turn alone; the
      // database gone for good (turns failing in a row) is this run alone from now on (its export says why).
      this.missed += 1;
      if (this.missed >= GIVE_UP_AFTER) this.failed = true;
      return alone();
    }
  }
}

/** Turns in a row the database may fail before a run keeps its host's pace alone. */
const GIVE_UP_AFTER = 3;

function free(request: TurnRequest): SharedTurn {
  return { sendAt: request.now, heldBy: "pace", intervalMs: 0, burst: 1 };
}

function tableAt(url: string, connectTimeoutMs: number): Promise<PaceTable | { refused: unknown }> {
  let table = pools.get(url);
  if (table === undefined) {
    table = import("./pace-table").then(
      (loaded) => loaded.openPaceTable(url, connectTimeoutMs).catch((refused: unknown) => ({ refused })),
      (refused: unknown) => ({ refused }),
    );
    pools.set(url, table);
  }
  return table;
}

/**
 * `adreport_pace` (targets/postgres/pace-ledger.ts): one row a key, its fingerprint and the schedule
 * `{tat, every, burst, hold}` in the server's epoch milliseconds. A turn is an upsert that returns the row
 * and holds its lock, the turn taken from it (core/pace-slot.ts takeTurn), and the row written back when
 * it changed, in one transaction: the hosts' turns are taken one after another. A request that has nothing
 * to tell only reads the row.
 */
import pg from "pg";
import {
  boundState,
  EMPTY_PACE,
  type SharedPace,
  type SharedTurn,
  type TurnRequest,
  takeTurn,
} from "../../core/pace-slot";

export const PACE_TABLE = "adreport_pace";

export interface PaceTable {
  apply(fingerprint: string, request: TurnRequest, take: boolean): Promise<SharedTurn>;
}

const CREATE = `CREATE TABLE IF NOT EXISTS ${PACE_TABLE} (
  key text PRIMARY KEY,
  tat double precision NOT NULL,
  every double precision NOT NULL,
  burst integer NOT NULL,
  hold double precision NOT NULL
)`;

const SERVER_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::double precision";

interface Row {
  tat: number;
  every: number;
  burst: number;
  hold: number;
  server: number;
}

export async function openPaceTable(url: string, connectTimeoutMs: number): Promise<PaceTable> {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: "adreport pace",
    connectionTimeoutMillis: connectTimeoutMs,
    max: 2,
    idleTimeoutMillis: 1000,
    allowExitOnIdle: true,
  });
  // A connection lost while idle: the next turn fails with it (and the run paces alone); no 'error' event unhandled.
  pool.on("error", () => undefined);
  try {
    await pool.query(CREATE);
  } catch (error) {
    // Two hosts making it at the same moment: one of them is told the type exists; the table is there.
    const code = (error as { code?: unknown }).code;
    // Or told something else by the race (a catalog row concurrently updated): the table is what counts.
    const made =
      code === "23505" ||
      code === "42P07" ||
      (await pool
        .query(`SELECT to_regclass('${PACE_TABLE}') IS NOT NULL AS made`)
        .then((r) => r.rows[0]?.made === true)
        .catch(() => false));
    if (!made) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }
  const stateOf = (row: Row | undefined): SharedPace =>
    row === undefined ? EMPTY_PACE : { tat: row.tat, intervalMs: row.every, burst: row.burst, hold: row.hold };
  return {
    async apply(fingerprint, request, take) {
      const tells = request.intervalMs > 0 || request.hold > request.now;
      const client = await pool.connect();
      try {
        if (!tells) {
          const sent = Date.now();
          const found = await client.query<Row>(
            `SELECT tat, every, burst, hold, ${SERVER_MS} AS server FROM ${PACE_TABLE} WHERE key = $1`,
            [fingerprint],
          );
          const row = found.rows[0];
          if (row === undefined) return { sendAt: request.now, heldBy: "pace", intervalMs: 0, burst: 1 };
          return inLocalTime(
            row,
            sent,
            request,
            (shifted) => takeTurn(boundState(stateOf(row), shifted.now), shifted, false).turn,
          );
        }
        await client.query("BEGIN");
        try {
          const sent = Date.now();
          const locked = await client.query<Row>(
            `INSERT INTO ${PACE_TABLE} AS p (key, tat, every, burst, hold) VALUES ($1, 0, 0, 1, 0)
               ON CONFLICT (key) DO UPDATE SET key = p.key
             RETURNING tat, every, burst, hold, ${SERVER_MS} AS server`,
            [fingerprint],
          );
          const row = locked.rows[0] as Row;
          const turn = await inLocalTime(row, sent, request, async (shifted) => {
            const { turn, state } = takeTurn(boundState(stateOf(row), shifted.now), shifted, take);
            if (state !== undefined) {
              await client.query(
                `UPDATE ${PACE_TABLE} SET tat = $2, every = $3, burst = $4, hold = $5 WHERE key = $1`,
                [fingerprint, state.tat, state.intervalMs, state.burst, state.hold],
              );
            }
            return turn;
          });
          await client.query("COMMIT");
          return turn;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      } finally {
        client.release();
      }
    },
  };
}

/**
 * The turn worked out in the server's clock (the schedule's), said in this host's: the request's times
 * moved by the difference of the two clocks (as seen when the row came back), and the turn's moved back.
 */
async function inLocalTime(
  row: Row,
  sent: number,
  request: TurnRequest,
  work: (shifted: TurnRequest) => SharedTurn | Promise<SharedTurn>,
): Promise<SharedTurn> {
  const local = (sent + Date.now()) / 2;
  const offset = Number(row.server) - local;
  const move = (at: number) => (at > 0 ? at + offset : at);
  const shifted: TurnRequest = {
    ...request,
    now: request.now + offset,
    floor: move(request.floor),
    hold: move(request.hold),
  };
  for (const field of ["tat", "every", "burst", "hold"] as const) row[field] = Number(row[field]);
  const turn = await work(shifted);
  return { ...turn, sendAt: turn.sendAt - offset };
}

/**
 * A table target's shape over a run: checked before any request (targets/table/shape.ts), checked again in the
 * run's transaction and given the columns it lacks (metrics the run fetches, `run_id`), and, once the run
 * committed, said: the columns added (with how to fill the days written before), what could not be recorded.
 */
import { UsageError } from "../../core/errors";
import { quoteName, type TableLayout } from "./columns";
import type { TableEngine } from "./engine";
import { LOADS_COLUMNS, LOADS_TABLE } from "./loads";
import { type FoundColumn, RUN_ID_COLUMN, refuseUnalterable, tableShape } from "./shape";

export interface TableGrowth {
  /** In the run's transaction, after the engine's begin: the shape checked again, missing columns added. */
  grow(): Promise<void>;
  /** The run id for the rows, or undefined where the table has no `run_id` and may not get one. */
  readonly runId: string | undefined;
  /** After the commit: says what changed (each text once per table); `recorded` false when adreport_loads was not written. */
  committed(recorded: boolean): void;
}

/** An adreport_loads not made by adreport would fail the run at its commit, after every request: refused now. */
function refuseForeignLoads(description: string, found: readonly FoundColumn[] | undefined): void {
  if (found === undefined) return;
  const missing = LOADS_COLUMNS.find((name) => !found.some((column) => column.name === name));
  if (missing === undefined) return;
  throw new UsageError(
    `the table ${LOADS_TABLE} beside ${description} is not adreport's: it has no column ${missing}`,
    { hint: `adreport records every run's days in ${LOADS_TABLE}: rename that table, or write to another database` },
  );
}

/** A missing table whose name an index or a view holds could not be created: refused before any request. */
async function refuseHeldName(engine: TableEngine, table: string): Promise<void> {
  const holder = await engine.nameHeldBy();
  if (holder === undefined) return;
  const what = holder === "an index" ? "INDEX" : holder === "a view" ? "VIEW" : undefined;
  const free = what === undefined ? "" : engine.dialect.freeName(what, quoteName(table), quoteName(`${table}_old`));
  throw new UsageError(`cannot create ${engine.description}: ${holder} there already has that name`, {
    hint: `choose another --table${free}`,
  });
}

export async function checkTable(
  engine: TableEngine,
  layout: TableLayout,
  table: string,
  run: { runId: string; job: string; note?: ((text: string) => void) | undefined },
): Promise<TableGrowth> {
  const { description, dialect } = engine;
  const columns = await engine.columns();
  if (columns === undefined) await refuseHeldName(engine, table);
  const first = tableShape(description, layout, columns, dialect);
  refuseForeignLoads(description, await engine.columns(LOADS_TABLE));
  const alterable = first.addMetrics.length > 0 || first.addRunId ? await engine.mayAlter() : true;
  if (!alterable) refuseUnalterable(description, table, first, dialect);
  let added: string[] = [];
  let runId: string | undefined = run.runId;
  const said = new Set<string>();
  const note = (text: string) => {
    if (said.has(text)) return;
    said.add(text);
    run.note?.(text);
  };
  return {
    get runId() {
      return runId;
    },
    async grow() {
      const shape = tableShape(description, layout, await engine.columns(), dialect);
      if (!alterable) refuseUnalterable(description, table, shape, dialect);
      const adds = shape.addMetrics.map((c) => ({ name: c.name, type: dialect.columnType(c.kind, layout.hourly) }));
      if (shape.addRunId && alterable) adds.push({ name: RUN_ID_COLUMN, type: dialect.columnType("label", false) });
      added = await engine.addColumns(adds);
      runId = shape.addRunId && !alterable ? undefined : run.runId;
    },
    committed(recorded: boolean) {
      if (added.length > 0) {
        const metrics = added.some((name) => name !== RUN_ID_COLUMN);
        const refill = ` (adreport state reset ${run.job} --from DATE writes them again)`;
        note(
          `added the column${added.length > 1 ? "s" : ""} ${added.join(", ")} to ${description}; the ${metrics ? "days" : "rows"} written before this run have none${metrics ? refill : ""}`,
        );
      }
      added = [];
      if (runId === undefined) {
        note(
          `${description} has no column ${RUN_ID_COLUMN} and only its owner may add it: its rows carry no run id (as the owner: ALTER TABLE ${table} ADD COLUMN ${RUN_ID_COLUMN} TEXT)`,
        );
      }
      if (!recorded) {
        note(
          `${description}: there is no table ${LOADS_TABLE} beside it and this role may not create it, so the run's days were not recorded there (adreport help cron)`,
        );
      }
    },
  };
}

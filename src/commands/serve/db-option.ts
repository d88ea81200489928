/** `--db`, which every verb of `serve` but `openapi` and `replay` takes. */
import { type Command, Option, type OptionValues } from "@commander-js/extra-typings";
import { databaseLabel } from "../../core/database-label";
import type { Context } from "../context";

/** `--db`, declared last on every verb so it comes last in each one's help. */
export function dbOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  ctx: Context,
) {
  const db = ctx.env.ADREPORT_DB && ctx.env.ADREPORT_DB !== "" ? ctx.env.ADREPORT_DB : "adreport.db";
  return cmd.addOption(
    new Option(
      "--db <file|url>",
      "the SQLite database file, or a postgres://user@host/db URL for a shared instance (env ADREPORT_DB)",
      // --help shows ADREPORT_DB's value as the default: with its password as ***.
    ).default(db, JSON.stringify(databaseLabel(db))),
  );
}

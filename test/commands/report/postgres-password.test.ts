/**
 * A PostgreSQL role that needs a password, on a real cluster (its pg_hba.conf asks this role for SCRAM):
 * without one, `report -o`, `verify` (its job remembers the URL without the password) and `serve --db` each
 * say in one line that no password was given and how to give one (they printed the driver's `SASL:
 * SCRAM-SERVER-FIRST-MESSAGE: client password must be a string`). And `serve` over a database whose tables
 * are in another schema says how to name that schema in the URL, which then works as printed.
 */
import { describe, expect, it } from "vitest";
import { at, newService } from "../../helpers/incremental";
import { type PostgresCluster, queryPostgres, usePostgres } from "../../helpers/postgres";
import { runInProcess } from "../../helpers/run-cli-in-process";

const postgres = usePostgres();
const NOW = at("2026-11-02");
const PASSWORD = "s3cret-Pw";

let prepared: Promise<void> | undefined;
/** The role `needspw` must give a password over TCP; every other role keeps trust. */
function askForPassword(cluster: PostgresCluster): Promise<void> {
  prepared ??= (async () => {
    await cluster.sql(`CREATE ROLE needspw LOGIN CREATEDB PASSWORD '${PASSWORD}'`);
    const file = (await cluster.sql("SHOW hba_file")).rows[0].hba_file as string;
    await cluster.sql(
      `COPY (VALUES ('host all needspw 127.0.0.1/32 scram-sha-256'), ('host all all 127.0.0.1/32 trust'), ('local all all trust')) TO '${file}'`,
    );
    await cluster.sql("SELECT pg_reload_conf()");
  })();
  return prepared;
}

async function database(context: { skip(note?: string): never }) {
  const cluster = postgres.cluster(context);
  await askForPassword(cluster);
  const admin = await cluster.createDatabase();
  const name = new URL(admin).pathname.slice(1);
  await queryPostgres(admin, `ALTER DATABASE "${name}" OWNER TO needspw`);
  return {
    bare: `postgres://needspw@127.0.0.1:${cluster.port}/${name}`,
    withPassword: `postgres://needspw:${PASSWORD}@127.0.0.1:${cluster.port}/${name}`,
  };
}

const NO_PASSWORD = /^adreport: cannot (write|read|use) .*: the server asks for a password and none was given$/m;
const HINT = /^hint: give the password in PGPASSWORD, in ~\/\.pgpass.*postgres:\/\/USER:PASSWORD@HOST\/DB\)$/m;

function expectNoPasswordSaid(result: { code: number | null; stderr: string }, code: number) {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toMatch(NO_PASSWORD);
  expect(result.stderr).toMatch(HINT);
  expect(result.stderr).not.toMatch(/SASL|SCRAM|must be a string|\n\s+at /);
  expect(result.stderr.trim().split("\n")).toHaveLength(2);
}

describe("PostgreSQL asks for a password and none was given", () => {
  it("report -o and verify: exit 1, one line saying so and a hint naming the three ways", async (context) => {
    const urls = await database(context);
    const { run } = await newService();
    const cron = ["report", "--dims", "campaign,date", "--incremental", "--start", "2026-10-25", "-q"];

    expectNoPasswordSaid(await run([...cron, "-o", urls.bare], NOW), 1);

    const written = await run([...cron, "-o", urls.withPassword], NOW);
    expect(written.code, written.stderr).toBe(0);
    const jobs = JSON.parse((await run(["state", "list", "--format", "json"], NOW)).stdout) as Array<{ job: string }>;
    const job = jobs[0]?.job as string;
    expectNoPasswordSaid(await run(["verify", job], NOW), 1);
  });

  it("a wrong password: the server's words, and the same hint", async (context) => {
    const urls = await database(context);
    const { run } = await newService();
    const wrong = urls.withPassword.replace(PASSWORD, "not-it");
    const result = await run(["report", "--dims", "campaign,date", "-o", wrong], NOW);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^adreport: cannot write .*: password authentication failed for user "needspw"$/m);
    expect(result.stderr).toMatch(HINT);
    expect(result.stderr).not.toContain("not-it");
  });

  it("serve --db: exit 2, the same words", async (context) => {
    const urls = await database(context);
    expectNoPasswordSaid(await runInProcess(["serve", "key", "list", "--db", urls.bare]), 2);
    expectNoPasswordSaid(await runInProcess(["serve", "--db", urls.bare, "--port", "0"]), 2);
  });
});

describe("serve --db over a database whose tables are in another schema", () => {
  it("says how to name the schema in the URL, and the URL so written works", async (context) => {
    const url = await postgres.database(context);
    await queryPostgres(url, "CREATE SCHEMA ads");
    const inAds = `${url}?options=-c%20search_path%3Dads`;
    expect((await runInProcess(["serve", "init", "--db", inAds])).code).toBe(0);
    expect(await queryPostgres(url, "SELECT count(*)::int AS n FROM ads.schema_info WHERE key = 'version'")).toEqual([
      { n: 1 },
    ]);

    const plain = await runInProcess(["serve", "key", "list", "--db", url]);
    expect(plain.code, plain.stderr).toBe(2);
    expect(plain.stderr).toMatch(/is not an adreport database \(create one with `adreport serve init`\)$/m);
    const named = plain.stderr.match(/^hint: if its tables are in another schema, name it in the URL: (\S+)/m)?.[1];
    expect(named).toBe("?options=-c%20search_path%3DSCHEMA");
    const listed = await runInProcess([
      "serve",
      "key",
      "list",
      "--db",
      `${url}${(named as string).replace("SCHEMA", "ads")}`,
    ]);
    expect(listed.code, listed.stderr).toBe(0);
  });

  it("gives no such hint where adreport's tables are there, of another version", async (context) => {
    const url = await postgres.database(context);
    expect((await runInProcess(["serve", "init", "--db", url])).code).toBe(0);
    await queryPostgres(url, "UPDATE schema_info SET value = '0' WHERE key = 'version'");
    const refused = await runInProcess(["serve", "key", "list", "--db", url]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/is not an adreport database/);
    expect(refused.stderr).not.toMatch(/another schema/);
  });
});

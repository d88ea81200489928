/** `--db` as printed: a URL's password never, whatever its spelling. */
import { describe, expect, it } from "vitest";
import { databaseLabel, isPostgresUrl } from "../../../src/core/database-label";

describe("databaseLabel", () => {
  it.each([
    ["postgres://u:hunter2@db:5432/x", "postgres://u:***@db:5432/x"],
    ["postgresql://u:p%40ss@db/x?sslmode=require", "postgresql://u:***@db/x?sslmode=require"],
    ["postgres://db/x?password=hunter2&user=u", "postgres://db/x?password=***&user=u"],
    ["postgres://u@db/x", "postgres://u@db/x"],
    ["POSTGRES://u:hunter2@db/x", "postgres://u:***@db/x"],
    ["postgres://u:hunter2@[bad/x", "postgres://***"],
  ])("%s is shown as %s", (url, shown) => {
    expect(databaseLabel(url)).toBe(shown);
    expect(databaseLabel(url)).not.toContain("hunter2");
  });

  it("leaves a path as it is, and tells paths from URLs", () => {
    expect(databaseLabel("./postgres://x.db")).toBe("./postgres://x.db");
    expect(isPostgresUrl("local.db")).toBe(false);
    expect(isPostgresUrl("postgresql://h/db")).toBe(true);
  });
});

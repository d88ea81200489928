/** How pg's errors read to the operator: worth trying again (exit 5, 503) or to fix (exit 2). */
import { describe, expect, it } from "vitest";
import { DatabaseError, DatabaseUnreachableError } from "../../../src/server/model/errors";
import { databaseFailure } from "../../../src/server/pg/pool";

const LABEL = "postgres://u:***@db.internal/x";

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("databaseFailure", () => {
  it("takes a name that cannot be resolved now (EAI_AGAIN) as unreachable, worth trying again", () => {
    const mapped = databaseFailure(failure("EAI_AGAIN", "getaddrinfo EAI_AGAIN db.internal"), LABEL);
    expect(mapped).toBeInstanceOf(DatabaseUnreachableError);
    expect((mapped as Error).message).toBe(`cannot reach ${LABEL}: getaddrinfo EAI_AGAIN db.internal`);
  });

  it("takes a name that does not exist (ENOTFOUND) as the operator's to fix", () => {
    expect(databaseFailure(failure("ENOTFOUND", "getaddrinfo ENOTFOUND db.internal"), LABEL)).toBeInstanceOf(
      DatabaseError,
    );
  });

  it("says that no password was given, whichever side noticed (driver for SCRAM, server for clear text)", () => {
    for (const [code, message] of [
      ["", "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string"],
      ["28P01", "empty password returned by client"],
    ] as const) {
      const mapped = databaseFailure(failure(code, message), LABEL) as DatabaseError;
      expect(mapped).toBeInstanceOf(DatabaseError);
      expect(mapped.message).toBe(`cannot use ${LABEL}: the server asks for a password and none was given`);
      expect(mapped.hint).toMatch(/^give the password in PGPASSWORD, in ~\/\.pgpass /);
    }
  });
});

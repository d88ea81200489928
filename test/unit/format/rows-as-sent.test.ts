import { describe, expect, it } from "vitest";
import { parseReportBody } from "../../../src/api/body/report-body";
import type { ReportRow, RowPage } from "../../../src/contract";
import { joinRows } from "../../../src/format/rows-as-sent";

function sentAs(body: Buffer): Required<RowPage> {
  const parsed = parseReportBody(body);
  const rows = (parsed.value as { data: ReportRow[] }).data;
  return { rows, sent: parsed.sent(rows.length) };
}

function page(text: string): Required<RowPage> {
  return sentAs(Buffer.from(text));
}

describe("joinRows", () => {
  const compact =
    '{"meta":{},"data":[{"dimensions":{"id":1,"name":"\\u00e9"},"metrics":{"spending":5.0}},{"dimensions":{"id":2},"metrics":{"spending":1e2}}]}';

  it("copies rows as the service spelled them, one per line", () => {
    expect(joinRows(page(compact), "\n", "\n").toString()).toBe(
      '{"dimensions":{"id":1,"name":"\\u00e9"},"metrics":{"spending":5.0}}\n{"dimensions":{"id":2},"metrics":{"spending":1e2}}\n',
    );
  });

  it("joins with a longer separator for JSON output", () => {
    expect(joinRows(page(compact), ",\n", "").toString()).toBe(
      '{"dimensions":{"id":1,"name":"\\u00e9"},"metrics":{"spending":5.0}},\n{"dimensions":{"id":2},"metrics":{"spending":1e2}}',
    );
  });

  it("serialises again a row that the service wrote over several lines", () => {
    const text =
      '{"data":[\n  {"dimensions":{"id":1},"metrics":{"v":1}},\n  {\n    "dimensions": {"id":2},\n    "metrics": {"v":2}\n  }\n]}';
    expect(joinRows(page(text), "\n", "\n").toString()).toBe(
      '{"dimensions":{"id":1},"metrics":{"v":1}}\n{"dimensions":{"id":2},"metrics":{"v":2}}\n',
    );
  });

  it("serialises rows when there is no body or the body is not valid UTF-8", () => {
    const { rows } = page(compact);
    const expected = `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;
    expect(joinRows({ rows }, "\n", "\n").toString()).toBe(expected);
    const broken = Buffer.from(compact);
    broken[broken.indexOf("spending")] = 0xff;
    expect(joinRows({ rows, sent: sentAs(broken).sent }, "\n", "\n").toString()).toBe(expected);
  });

  it("writes nothing for a page without rows", () => {
    expect(joinRows(page('{"data":[]}'), "\n", "").toString()).toBe("");
  });
});

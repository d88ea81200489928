/** Reading a body whole but bounded, and a body whose connection failed before its turn. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readBoundedBody } from "../../../src/api/read-body";
import type { Dispatcher } from "../../../src/api/undici";

type Body = Dispatcher.ResponseData["body"];
const asBody = (stream: PassThrough) => stream as unknown as Body;

describe("readBoundedBody", () => {
  it("gives the whole body in a buffer of its own", async () => {
    const stream = new PassThrough();
    const read = readBoundedBody(asBody(stream), 10, undefined);
    stream.write("abc");
    stream.end("def");
    expect((await read).toString()).toBe("abcdef");
  });

  it("refuses a body announced over the bound without reading it, and stops one that grows past it", async () => {
    const announced = new PassThrough();
    await expect(readBoundedBody(asBody(announced), 10, "11")).rejects.toEqual(new BodyTooLargeError(10, 11));
    expect(announced.destroyed).toBe(true);
    const growing = new PassThrough();
    const read = readBoundedBody(asBody(growing), 10, undefined);
    growing.write("123456");
    growing.write("789012");
    await expect(read).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(growing.destroyed).toBe(true);
  });

  it("fails at once for a body whose stream failed before it was read, instead of waiting for ever", async () => {
    const stream = new PassThrough();
    stream.on("error", () => undefined);
    stream.destroy(Object.assign(new Error("socket reset"), { code: "ECONNRESET" }));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(readBoundedBody(asBody(stream), 10, undefined)).rejects.toThrow("socket reset");
    const closed = new PassThrough();
    closed.destroy();
    await expect(readBoundedBody(asBody(closed), 10, undefined)).rejects.toThrow("closed before the whole answer");
  });
});

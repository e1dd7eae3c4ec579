import { describe, expect, it } from "vitest";

import { parseSseData } from "../../src/conversations/upstream/sse-parser";

async function collect(chunks: string[]) {
  const encoder = new TextEncoder();
  const body = (async function* () {
    for (const chunk of chunks) yield encoder.encode(chunk);
  })();
  const out: string[] = [];
  for await (const data of parseSseData(body)) out.push(data);
  return out;
}

describe("parseSseData", () => {
  it("splits events at blank lines, whatever the chunk boundaries", async () => {
    const text = 'data: {"a":1}\n\ndata: {"b":2}\n\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(await collect([text.slice(0, cut), text.slice(cut)])).toEqual(['{"a":1}', '{"b":2}']);
    }
  });

  it("reads a CRLF split between two chunks as one line break", async () => {
    const text = "data: one\r\ndata: two\r\n\r\ndata: three\r\n\r\n";
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(await collect([text.slice(0, cut), text.slice(cut)])).toEqual(["one\ntwo", "three"]);
    }
    expect(await collect([...text])).toEqual(["one\ntwo", "three"]);
    expect(await collect(["data: one\r", "", "\n\r\n"])).toEqual(["one"]);
    // The LF that ends the CRLF is taken once: the blank line after it still ends the event.
    expect(await collect(["data: one\r", "\n", "\n", "data: two\n\n"])).toEqual(["one", "two"]);
  });

  it("ends an event at lone CRs", async () => {
    expect(await collect(["data: one\r\rdata: two\r", "\r"])).toEqual(["one", "two"]);
  });

  it("handles several events in one chunk, CRLF, comments, other fields and multi-line data", async () => {
    expect(await collect([": ping\r\nevent: x\r\nid: 3\r\ndata: one\r\ndata: two\r\n\r\ndata:three\n\n"])).toEqual([
      "one\ntwo",
      "three",
    ]);
  });

  it("yields a last event that lacks its blank line", async () => {
    expect(await collect(["data: tail"])).toEqual(["tail"]);
  });

  it("decodes multi-byte characters split across chunks", async () => {
    const bytes = new TextEncoder().encode("data: prêt à taux zéro\n\n");
    const body = (async function* () {
      for (const byte of bytes) yield new Uint8Array([byte]);
    })();
    const out: string[] = [];
    for await (const data of parseSseData(body)) out.push(data);
    expect(out).toEqual(["prêt à taux zéro"]);
  });
});

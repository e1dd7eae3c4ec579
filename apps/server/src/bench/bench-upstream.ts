import { createServer, type Server } from "node:http";

/** How the bench's upstream answers: all frames at once, or one `content` frame a second. */
export type UpstreamPace = { kind: "instant" } | { kind: "slow"; seconds: number };

const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`;
const ANSWER = "FHA requires 3.5 percent down.";
const ENDING = [
  { type: "content_postprocessed", content: ANSWER, citations: [{ id: "c1", title: "FHA" }], sources: [] },
  { type: "complete", metadata: { tokens_used: 12 } },
];

/**
 * A stand-in upstream (docs/upstream-protocol.md) whose pace the bench switches between
 * scenarios. The slow pace is the shape of a real answer: a first fragment at once, then one
 * a second, so open streams sit idle in the server the way they do in production.
 */
export function benchUpstream(): { server: Server; setPace(pace: UpstreamPace): void } {
  let pace: UpstreamPace = { kind: "instant" };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      if (pace.kind === "instant") {
        res.end(frame({ type: "content", content: ANSWER }) + ENDING.map(frame).join(""));
        return;
      }
      let sent = 0;
      const total = pace.seconds;
      const next = () => {
        if (res.destroyed) return;
        res.write(frame({ type: "content", content: `Part ${sent + 1}. ` }));
        sent += 1;
        if (sent < total) timer = setTimeout(next, 1000);
        else res.end(ENDING.map(frame).join(""));
      };
      let timer = setTimeout(next, 0);
      res.on("close", () => clearTimeout(timer));
    });
  });
  return { server, setPace: (next) => (pace = next) };
}

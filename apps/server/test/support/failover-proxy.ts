import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Headers about one connection, not the request: the proxy's own connections set theirs. */
const HOP_BY_HOP = ["connection", "keep-alive", "host", "transfer-encoding"];

export interface FailoverProxy {
  url: string;
  /** The instance that answered each request, in order. */
  answeredBy: string[];
  close(): Promise<void>;
}

/**
 * A load balancer in miniature, in front of two instances: every request goes to `primary`, and
 * to `secondary` when the primary refuses the connection (an instance that is shutting down
 * closes its listener), as balancers retry a refused connection elsewhere. Responses stream
 * through as they come, and one cut short by its instance is cut short for the client.
 */
export async function startFailoverProxy(primary: string, secondary: string): Promise<FailoverProxy> {
  const answeredBy: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: IncomingHttpHeaders = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.includes(name)),
      );
      const forward = (target: string, fallback: string | undefined) => {
        // A connection of its own per request (no pool): a kept-alive one could outlive its instance's listener.
        const outgoing = request(
          new URL(req.url ?? "/", target),
          { method: req.method, headers, agent: false },
          (response) => {
            answeredBy.push(target);
            res.writeHead(response.statusCode ?? 502, response.headers);
            response.pipe(res);
            response.on("close", () => {
              if (!response.complete) res.destroy();
            });
          },
        );
        outgoing.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED" && fallback) forward(fallback, undefined);
          else res.destroy();
        });
        res.on("close", () => outgoing.destroy());
        outgoing.end(Buffer.concat(chunks));
      };
      forward(primary, secondary);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answeredBy,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// The load of compare-builds.mjs's burst, in a process of its own: `streams` POST /v1/messages
// streams sent at once, each on its own connection (as `pnpm bench`'s burst sends them), each
// read until its first `content` frame. Prints one JSON line: the statuses, and the first
// frames' percentiles from each request's creation.
// Usage: node burst-client.mjs <url> <key> <streams>
import http from "node:http";

const [url, key, count] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const body = JSON.stringify({
  message: "What is the minimum down payment for an FHA loan?",
  user: { external_user_id: "bench" },
  stream: true,
});
const latencies = [];
const statuses = {};
let settled = 0;

const count1 = (name) => (statuses[name] = (statuses[name] ?? 0) + 1);
function settle() {
  settled += 1;
  if (settled < count) return;
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? NaN);
  console.log(JSON.stringify({ statuses, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }));
  process.exit(0);
}

for (let i = 0; i < count; i += 1) {
  const created = performance.now();
  const req = http.request(
    url,
    { method: "POST", agent, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" } },
    (res) => {
      count1(String(res.statusCode));
      let seen = "";
      const onData = (chunk) => {
        seen += chunk;
        if (res.statusCode === 200 && !seen.includes('"type":"content"')) return;
        res.off("data", onData);
        if (res.statusCode === 200) latencies.push(performance.now() - created);
        settle();
      };
      res.on("data", onData);
      res.on("error", () => {});
      // Read on (and drop) what follows, as a client holding the stream open does.
      res.resume();
    },
  );
  req.on("error", (error) => {
    count1(error.code ?? "error");
    settle();
  });
  req.end(body);
}

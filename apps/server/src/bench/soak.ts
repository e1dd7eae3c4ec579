import { CHAT_SCOPES, knob, startBenchEnvironment } from "./environment";
import { startLoadGenerator } from "./load-process";
import { machine, markdown, mib, type Row } from "./report";
import { STREAMED_QUESTION } from "./stream-burst";

/**
 * `pnpm bench:soak`: mixed load for SOAK_MINUTES (10) minutes (GET /v1/me, POST /v1/messages as
 * JSON and as a stream, SOAK_CONNECTIONS (4) clients each, an instant upstream), the server's
 * RSS read after every minute, after a warm-up minute that is not counted. The memory
 * target: the last minute's RSS within 20% of the first minute's (memory that grows with time
 * is a leak; memory taken once under load and kept is not). The server is the same child
 * process as `pnpm bench` (environment.ts), so NODE_OPTIONS and MALLOC_ARENA_MAX can be
 * compared here too.
 */
const MINUTES = knob("SOAK_MINUTES", 10);
const CONNECTIONS = knob("SOAK_CONNECTIONS", 4);
const MINUTE_SECONDS = knob("SOAK_MINUTE_SECONDS", 60);
/**
 * The warm-up, not counted (a minute by default). Under this load the server's heap grows for
 * 20 to 30 s before it levels off: a shorter warm-up (CI's minutes of 5 s) would count that
 * growth, which happens once, as growth with time.
 */
const WARMUP_SECONDS = knob("SOAK_WARMUP_SECONDS", MINUTE_SECONDS);

async function main() {
  const env = await startBenchEnvironment();
  const [meKey, messageKey, streamKey] = await Promise.all([
    env.newKey(CHAT_SCOPES),
    env.newKey(CHAT_SCOPES),
    env.newKey(CHAT_SCOPES),
  ]);
  const json = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });
  const question = { message: STREAMED_QUESTION.message, user: { external_user_id: "soak" } };
  // Each kind's clients in a load generator process of their own (load-generator.ts), side by side.
  const generators = { me: startLoadGenerator(), messages: startLoadGenerator(), streams: startLoadGenerator() };
  const url = env.api.url;
  console.error(`soak: ${MINUTES} minutes of mixed load, ${CONNECTIONS} connections per kind`);

  const startRss = env.api.rss();
  const rows: Row[] = [];
  const samples: number[] = [];
  // Minute 0 is the warm-up, not counted: what the server takes once under load (compiled code,
  // its heap grown to the load's size) is not memory that grows with time.
  for (let minute = 0; minute <= MINUTES; minute += 1) {
    const round = {
      seconds: minute === 0 ? WARMUP_SECONDS : MINUTE_SECONDS,
      connections: CONNECTIONS,
      kind: "requests" as const,
    };
    const peakOf = env.api.samplePeak();
    const [me, messages, streams] = await Promise.all([
      generators.me.run({
        ...round,
        url: `${url}/v1/me`,
        method: "GET",
        headers: { Authorization: `Bearer ${meKey}` },
      }),
      generators.messages.run({
        ...round,
        url: `${url}/v1/messages`,
        method: "POST",
        headers: json(messageKey),
        body: JSON.stringify(question),
      }),
      generators.streams.run({
        ...round,
        url: `${url}/v1/messages`,
        method: "POST",
        headers: json(streamKey),
        body: JSON.stringify({ ...question, stream: true }),
      }),
    ]);
    const peak = peakOf();
    const rss = env.api.rss();
    if (minute > 0) samples.push(rss);
    const requests = me.requests + messages.requests + streams.requests;
    const errors = me.errors + messages.errors + streams.errors;
    console.error(`minute ${minute}: RSS ${mib(rss)}, ${requests} requests, ${errors} errors`);
    rows.push({
      measure: minute === 0 ? `warm-up of ${WARMUP_SECONDS} s (not counted)` : `minute ${minute}`,
      value: `RSS ${mib(rss)} (peak ${mib(peak)})`,
      bare: "",
      comparison: `${requests.toLocaleString("en-US")} requests (${Math.round(me.rps)} me, ${Math.round(messages.rps)} messages, ${Math.round(streams.rps)} streams /s), ${errors} errors`,
      target: "",
    });
  }
  const first = samples[0] ?? 0;
  const last = samples.at(-1) ?? 0;
  rows.push({
    measure: `RSS after the last minute against the first`,
    value: `${mib(last)} vs ${mib(first)} (${(((last - first) / first) * 100).toFixed(1)}%)`,
    bare: "",
    comparison: `at start: ${mib(startRss)}`,
    target: "within 20%",
    met: Math.abs(last - first) <= 0.2 * first,
  });
  console.log(
    `\nSoak of ${new Date().toISOString().slice(0, 10)} on ${machine(env.databaseLabel)} (${MINUTES} × ${MINUTE_SECONDS} s)\n`,
  );
  console.log(markdown(rows));
  await Promise.all(Object.values(generators).map((generator) => generator.stop()));
  await env.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// A partner's ESM program, run by the pack-and-install test (sdk-package.test.ts) from an empty
// project that installed the SDK's tarball with npm. It prints what it saw as one JSON line.
import { ApiError, Client } from "@mga/sdk";

const client = new Client({ apiKey: process.env.MGA_API_KEY, baseUrl: process.env.MGA_BASE_URL });
const user = { external_user_id: "lo-17" };
const fhaOnly = { agency_source_types: ["fha"] };

const me = await client.me.get();
const sources = await client.sources.list();
const answer = await client.messages.create({
  message: "What is the minimum down payment for an FHA loan?",
  user,
  search_options: fhaOnly,
});

const stream = await client.conversations.messages.stream(answer.conversation_id, {
  message: "Can the down payment be a gift?",
  user,
  search_options: fhaOnly,
});
const frames = [];
for await (const frame of stream) frames.push(frame.type);
const streamed = await stream.finalAnswer();

const history = await client.conversations.messages.list(answer.conversation_id);
const refusal = await client.conversations.get("conv_missing").catch((error) => error);

console.log(
  JSON.stringify({
    node: process.versions.node,
    resolved: import.meta.resolve("@mga/sdk"),
    scopes: me.key.scopes,
    agencySources: sources.agency_source_types,
    answer: { conversationId: answer.conversation_id, text: answer.response, citations: answer.citations.length },
    stream: {
      frames,
      text: streamed.text,
      conversationId: streamed.conversationId,
      messageId: streamed.messageId,
      citations: streamed.citations.length,
    },
    historyLength: history.messages.length,
    error: {
      isApiError: refusal instanceof ApiError,
      status: refusal.status,
      code: refusal.code,
      requestId: refusal.requestId,
    },
  }),
);

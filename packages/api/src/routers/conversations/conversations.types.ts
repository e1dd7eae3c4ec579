import { z } from "zod";

import { FRAME_ID_PATTERN } from "@mga/core/answers";
import { ANSWER_STREAM_STATUSES } from "@mga/core/closed-values";
import { HISTORY_ORDERS, MESSAGE_ROLES } from "@mga/core/conversations";
import { emailAddressSchema } from "@mga/core/partners/users";
import { agencySourceTypeSchema } from "@mga/core/sources";

import { errorEnvelopeSchema, idempotencyKeySchema, requestIdField } from "../../schemas/common";
import { cursorSchema, externalUserIdSchema } from "../../schemas/partner-ids";

/** Wire shapes of area A (spec 2.5-2.7, 4.3-4.7). */
const MAX_METADATA_BYTES = 16 * 1024;

export const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => JSON.stringify(value).length <= MAX_METADATA_BYTES,
    `must be at most ${MAX_METADATA_BYTES} bytes of JSON`,
  )
  .meta({
    description:
      "Free-form object, stored and returned as sent (at most 16 KiB of JSON). Its keys and strings, at any depth, may not contain a NUL character or an unpaired UTF-16 surrogate.",
  });

export const endUserSchema = z
  .strictObject({
    external_user_id: z.string().min(1).max(128),
    email: emailAddressSchema.optional(),
    name: z.string().max(120).optional(),
  })
  .meta({ id: "ConversationUser" });

export const searchOptionsSchema = z
  .strictObject({
    agency_source_types: z.array(agencySourceTypeSchema).max(100).optional(),
    tenant_source_keys: z.array(z.string().min(1).max(128)).max(100).optional(),
    shared_source_types: z.array(z.string().min(1).max(128)).max(100).optional(),
  })
  .meta({
    id: "SearchOptions",
    description:
      "Sources for this request. Each value must be one the key may select (GET /v1/sources), else 400 naming the category and the values; a category left out takes the tenant's default, an empty list switches it off, and at least one source must remain (else 400).",
  });

export const messageTextSchema = z.string().min(1).max(4000);
export const conversationIdSchema = z.string().min(1).max(64);

export const completionMetadataSchema = z
  .looseObject({ tokens_used: z.int().min(0).max(Number.MAX_SAFE_INTEGER) })
  .meta({ id: "CompletionMetadata" });

export const citationSchema = z
  .strictObject({
    id: z.string().optional(),
    title: z.string().optional(),
    source_type: z.string().optional(),
    source_key: z.string().optional(),
    source_label: z.string().optional(),
    section: z.string().optional(),
    excerpt: z.string().optional(),
    url: z.string().optional(),
    page: z.int().min(0).max(1_000_000).optional(),
  })
  .meta({ id: "Citation" });

export const sourceSchema = z
  .strictObject({
    source_type: z.string().optional(),
    source_key: z.string().optional(),
    label: z.string().optional(),
    title: z.string().optional(),
    url: z.string().optional(),
  })
  .meta({ id: "AnswerSource" });

export const conversationSchema = z
  .strictObject({
    conversation_id: z.string().min(1),
    title: z.string().nullable(),
    status: z.string().nullable(),
    created_at: z.iso.datetime().nullable(),
    updated_at: z.iso.datetime().nullable(),
    message_count: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Conversation" });

export const messageSchema = z
  .strictObject({
    message_id: z.string().min(1),
    role: z.enum(MESSAGE_ROLES).nullable(),
    content: z.string().nullable(),
    citations: z.array(citationSchema),
    sources: z.array(sourceSchema),
    metadata: z.record(z.string(), z.unknown()).meta({
      description:
        "Free-form. A question: the request's `metadata` and `external_user_id`. An answer: its completion metadata (`tokens_used`); cut off, also `incomplete: true` and `error_code`. An answer still being generated (not stored yet; `content` is the text so far): `generating: true`, `tokens_used: 0`, `last_event_id` (the frame `content` reaches) and `resume_path` (GET …/stream after that frame: the rest of the answer, live).",
    }),
    created_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Message" });

// POST /v1/conversations
export const createConversationInput = z.strictObject({
  user: endUserSchema,
  title: z.string().min(1).max(200).optional(),
  metadata: metadataSchema.optional(),
});
export const createConversationOutput = z
  .strictObject({ request_id: requestIdField, conversation_id: z.string().min(1) })
  .meta({ id: "CreateConversationResponse" });

// POST /v1/messages
export const sendMessageInput = z.strictObject({
  message: messageTextSchema,
  user: endUserSchema,
  stream: z.boolean().optional(),
  metadata: metadataSchema.optional(),
  search_options: searchOptionsSchema.optional(),
  conversation_id: conversationIdSchema.optional(),
  conversation: z
    .strictObject({ title: z.string().min(1).max(200).optional(), metadata: metadataSchema.optional() })
    .optional()
    .meta({ description: "Used only when the API creates the conversation." }),
});

// POST /v1/conversations/{conversationId}/messages
export const sendToConversationInput = z.strictObject({
  conversationId: conversationIdSchema,
  message: messageTextSchema,
  user: endUserSchema,
  stream: z.boolean().optional(),
  metadata: metadataSchema.optional(),
  search_options: searchOptionsSchema.optional(),
});

export const sendMessageOutput = z
  .strictObject({
    request_id: requestIdField,
    conversation_id: z.string().min(1),
    conversation_created: z.boolean().optional(),
    message_id: z.string().min(1),
    response: z.string(),
    citations: z.array(citationSchema),
    sources: z.array(sourceSchema),
    metadata: completionMetadataSchema,
  })
  .meta({ id: "SendMessageResponse" });

// GET /v1/conversations/{conversationId}
export const getConversationInput = z.strictObject({ conversationId: conversationIdSchema });
export const getConversationOutput = z
  .strictObject({ request_id: requestIdField, conversation: conversationSchema })
  .meta({ id: "GetConversationResponse" });

// POST /v1/conversations/{conversationId}/cancel
export const cancelAnswerInput = z.strictObject({ conversationId: conversationIdSchema });
export const cancelAnswerOutput = z
  .strictObject({
    request_id: requestIdField,
    conversation_id: z.string().min(1),
    message_id: z.string().min(1).meta({
      description: "The answer's message: stored as incomplete (metadata.error_code `cancelled`) once it stopped.",
    }),
    status: z.enum(ANSWER_STREAM_STATUSES).meta({
      description:
        "`generating` with 202: asked to stop, which takes effect within moments on whichever server generates it. With 200 the answer had already ended: complete, failed or cancelled.",
    }),
  })
  .meta({ id: "CancelAnswerResponse" });

// GET /v1/conversations/{conversationId}/stream
const lastEventIdSchema = z.string().regex(FRAME_ID_PATTERN).meta({
  description:
    "The `id:` of the last frame received (opaque: send it back as it came). Without it, the conversation's newest answer is replayed from its first frame.",
  example: "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.12",
});
export const resumeAnswerInput = z.strictObject({
  conversationId: conversationIdSchema,
  last_event_id: lastEventIdSchema.optional(),
});
/**
 * The route answers text/event-stream only (the document says so); this is the shape of nothing
 * the adapter sends, so it is no component of the document (one nothing refers to).
 */
export const resumeAnswerOutput = z.strictObject({});
export const resumeAnswerHeaders = z.object({
  "Last-Event-ID": lastEventIdSchema.optional().meta({
    description:
      "As the SSE standard has a client send it when it reconnects; the same as `last_event_id`, which wins when both are sent.",
  }),
});

// GET /v1/conversations/{conversationId}/messages
const historyCursorSchema = cursorSchema.meta({
  description:
    "The `next_cursor` of the previous page, sent with the same `order`; another conversation's, another order's or one altered is a 400.",
});

export const listMessagesInput = z.strictObject({
  conversationId: conversationIdSchema,
  limit: z
    .int()
    .min(1)
    .max(100)
    .meta({
      description:
        "Pages the history: at most this many stored messages a page (100 when only `cursor` is sent). Without `limit` and `cursor`, every message in one answer, without `next_cursor`.",
    })
    .optional(),
  cursor: historyCursorSchema.optional(),
  order: z
    .enum(HISTORY_ORDERS)
    .default("asc")
    .meta({ description: "By position in the conversation: `asc` oldest first, `desc` newest first." }),
});
export const listMessagesOutput = z
  .strictObject({
    request_id: requestIdField,
    conversation_id: z.string().min(1),
    messages: z.array(messageSchema),
    next_cursor: z.string().nullable().optional().meta({
      description: "Present when paging (`limit` or `cursor` sent): the cursor of the next page, null on the last.",
    }),
  })
  .meta({ id: "ListMessagesResponse" });

// GET /v1/conversations
export const listConversationsInput = z.strictObject({
  external_user_id: externalUserIdSchema.meta({
    description: "The end user the conversations were created for (`user.external_user_id`); spec 2.1's format.",
  }),
  limit: z.int().min(1).max(100).default(20),
  cursor: cursorSchema
    .meta({ description: "The `next_cursor` of the previous page, sent with the same `external_user_id`." })
    .optional(),
});
export const listConversationsOutput = z
  .strictObject({
    request_id: requestIdField,
    conversations: z.array(conversationSchema),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "ListConversationsResponse" });

/**
 * The frames of a streamed answer (spec 6.1): one schema per frame, each a named component of
 * the OpenAPI document (so clients generate a type per frame), used by the SSE route and tests.
 */
export const conversationFrameSchema = z
  .strictObject({
    type: z.literal("public_api_conversation"),
    request_id: z.string(),
    conversation_id: z.string(),
    conversation_created: z.boolean(),
  })
  .meta({
    id: "StreamEventConversation",
    description: "First, only on POST /v1/messages: the conversation the answer belongs to.",
  });
export const contentFrameSchema = z
  .strictObject({ type: z.literal("content"), content: z.string() })
  .meta({ id: "StreamEventContent", description: "A fragment of the answer text; zero or more, in order." });
export const contentPostprocessedFrameSchema = z
  .strictObject({ type: z.literal("content_postprocessed"), content: z.string() })
  .meta({
    id: "StreamEventContentPostprocessed",
    description: "The whole answer text after post-processing; replaces the fragments.",
  });
export const completeFrameSchema = z
  .strictObject({
    type: z.literal("complete"),
    metadata: completionMetadataSchema,
    citations: z.array(citationSchema),
    sources: z.array(sourceSchema),
  })
  .meta({
    id: "StreamEventComplete",
    description: "Generation finished: token count, citations and sources of the answer.",
  });
export const publicApiCompleteFrameSchema = z
  .strictObject({
    type: z.literal("public_api_complete"),
    request_id: z.string(),
    conversation_id: z.string(),
    message_id: z.string(),
  })
  .meta({
    id: "StreamEventPublicApiComplete",
    description: "Last frame of a successful answer, sent once the assistant message is stored.",
  });
export const errorFrameSchema = z
  .strictObject({ type: z.literal("error"), status: z.int().min(400).max(599), error: errorEnvelopeSchema.shape.error })
  .meta({
    id: "StreamEventError",
    description:
      "Terminal frame of a stream that failed after it started: the HTTP status and the error envelope's body it would have had.",
  });
export const streamEventSchema = z
  .discriminatedUnion("type", [
    conversationFrameSchema,
    contentFrameSchema,
    contentPostprocessedFrameSchema,
    completeFrameSchema,
    publicApiCompleteFrameSchema,
    errorFrameSchema,
  ])
  .meta({
    id: "StreamEvent",
    description: "One frame of the event stream: `data: <this JSON>` followed by a blank line.",
  });
export type StreamEvent = z.infer<typeof streamEventSchema>;

/** Documents the optional Idempotency-Key header of the POST routes (withIdempotency parses it with the same pattern). */
export const idempotencyHeaders = z.object({
  "Idempotency-Key": idempotencyKeySchema.optional().meta({
    description:
      "Replays the stored response of an identical earlier request for 24 hours. 1-255 printable ASCII characters without spaces, bare or in double quotes. Refused (400) with stream: true, whatever its value.",
  }),
});

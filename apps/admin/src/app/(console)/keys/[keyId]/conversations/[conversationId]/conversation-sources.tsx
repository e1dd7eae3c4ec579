import { Empty, Section } from "@/components/ui";
import type { StaffOutputs } from "@/lib/api-types";

type Source = StaffOutputs["conversations"]["messages"]["sources"][number];

/**
 * The guideline excerpts the answers cited, under the answer they belong to ("Answer 2, [1]"
 * matches the [1] in that answer's text), so support can check an answer against its sources.
 */
export function ConversationSources({ sources, messageIds }: { sources: Source[]; messageIds: string[] }) {
  const answerNumber = (messageId: string) => messageIds.indexOf(messageId) + 1;
  return (
    <Section title="Sources">
      {sources.length === 0 ? (
        <Empty>No answer in this conversation cites a guideline excerpt.</Empty>
      ) : (
        <ol className="sources" data-testid="conversation-sources">
          {sources.map((source) => (
            <li key={`${source.message_id}-${source.number}`} className="message source">
              <div className="message-meta">
                Message {answerNumber(source.message_id)}, [{source.number}]
                {source.source_label ? ` · ${source.source_label}` : ""}
                {source.section ? ` · ${source.section}` : ""}
                {source.page !== null ? ` · page ${source.page}` : ""}
              </div>
              {source.title ? <strong className="source-title">{source.title}</strong> : null}
              {source.excerpt ? (
                <blockquote className="source-excerpt">{source.excerpt}</blockquote>
              ) : (
                <p className="hint">No excerpt was recorded.</p>
              )}
              {/* Only web addresses become links: a citation's url comes from the upstream. */}
              {source.url && /^https?:\/\//i.test(source.url) ? (
                <a href={source.url} rel="noreferrer noopener" target="_blank">
                  {source.url}
                </a>
              ) : source.url ? (
                <code>{source.url}</code>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

-- The frame writer's flush (src/answers/answer-store.ts) wrote each frame with a foreign-key
-- check on its answer: an index lookup and a row lock per frame, a third of the flush's time
-- (EXPLAIN ANALYZE of a flush of 1,000 new answers, 2,000 frames: 28 of 91 ms; the answers' own
-- key to their conversations, which stays, took 15). The flush writes its answers' rows before
-- their frames, in the same statement, and only frames of the rows it wrote, so the key never
-- refused one.
-- DropForeignKey
ALTER TABLE "answer_stream_frames" DROP CONSTRAINT "answer_stream_frames_stream_id_fkey";

-- A frame still goes with its answer, whatever deletes the answer (the prune, or the cascade
-- from its conversation, key or organization): once per statement, from the rows it deleted. A
-- flush that wrote frames of an answer being deleted holds the answer's row until it commits; the
-- delete waits for it, and its trigger then sees and deletes those frames too.
CREATE FUNCTION "answer_stream_frames_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "answer_stream_frames" f USING old_rows o WHERE f."stream_id" = o."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "answer_streams_frames_deleted" AFTER DELETE ON "answer_streams"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "answer_stream_frames_follow"();

-- Every flush updates the row of each answer it carries (its last frame, and now and then its
-- lease), and a burst's answers are written together, so their rows fill pages together. A new
-- version stays on its page, and touches no index, only if the page has room for it (a HOT
-- update; the versions it leaves are pruned before the next round). Rows filling F% of a page
-- leave room for new versions of all of them only if F <= 50: at 70
-- (20261127090000_answer_streams_fillfactor) the 30% left took fewer than half, and a flush that
-- moved all of a page's answers on sent the others to new pages, with new entries in the
-- table's four indexes.
ALTER TABLE "answer_streams" SET (fillfactor = 50);

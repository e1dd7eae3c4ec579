-- Room on each page for the flushes' updates of an answer's row to stay on it (HOT updates).
ALTER TABLE "answer_streams" SET (fillfactor = 70);

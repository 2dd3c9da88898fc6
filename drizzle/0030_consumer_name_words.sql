-- Find (issue 36): the consumer's name words stored, so a match over many consumers reads them
-- instead of working each one out again; the index moves from the expression to the column.
DROP INDEX "consumers_name_words_idx";--> statement-breakpoint
ALTER TABLE "consumers" ADD COLUMN "name_words" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce("consumers"."profile"->'name'->>'first', '') || ' ' || coalesce("consumers"."profile"->'name'->>'middle', '') || ' ' || coalesce("consumers"."profile"->'name'->>'last', '') || ' ' || coalesce("consumers"."profile"->'name'->>'brand', ''))) STORED;--> statement-breakpoint
CREATE INDEX "consumers_name_words_idx" ON "consumers" USING gin ("name_words");
-- Edited by hand: drizzle-kit wrote the custom type as "undefined"."bytea" and no USING (text has no
-- cast to bytea). The bodies kept so far are text, so their bytes are their UTF-8.
ALTER TABLE "funding_callbacks" ALTER COLUMN "body" SET DATA TYPE bytea USING convert_to("body", 'UTF8');

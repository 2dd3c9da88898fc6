-- Issue 37, item 3: why a claim was rejected, from the documented list (src/modules/claims/rejections.ts).
-- Claims rejected before keep none (the regulator's view counts them as "not recorded").
ALTER TABLE "claims" ADD COLUMN "rejection_reason" text;
/**
 * clients/typescript/src/generated.ts is what `npm run client:types` makes of the service's own
 * GET /openapi.json today: a change of a command's schema without regenerating fails here. The
 * client's seed and answer types (src/types.ts) are aliases into it.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { clientTypesSource, GENERATED_FILE, openApiDocument } from "../../scripts/client-types";

test("the committed generated.ts is current (run npm run client:types after changing a command's schema)", async () => {
  const document = await openApiDocument();
  expect(document).not.toBeNull();
  expect(existsSync(GENERATED_FILE)).toBe(true);
  const expected = await clientTypesSource(document!);
  expect(readFileSync(GENERATED_FILE, "utf8") === expected).toBe(true);
}, 60_000);

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findViolations } from "../../../scripts/import-rules.ts";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "lantern-imports-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("import rules", () => {
  test("the project itself keeps them", () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    expect(findViolations(root)).toEqual([]);
  });

  test("each broken rule is caught", () => {
    const root = tree({
      "site/src/islands/a.tsx": `import { x } from "../admin/app";`,
      "site/src/admin/features/reports/b.tsx": `import { y } from "../forms/c";`,
      "site/src/admin/features/forms/c.tsx": `export const y = 1;`,
      "site/src/lib/d.ts": `import { z } from "../../../api/modules/users/service.ts";`,
      "db/schema/e.ts": `import type { Ctx } from "../../api/context.ts";`,
      "api/shared/f.ts": `import { g } from "../lib/log.ts";`,
      "api/modules/g.ts": `import { h } from "../http/pages.ts";`,
      "api/shared/ok.ts": `import { ROLE_NAMES } from "./enums.ts";`,
    });
    try {
      const rules = findViolations(root).map((v) => `${v.file}: ${v.rule}`);
      expect(rules).toEqual([
        "api/modules/g.ts: modules do not depend on the HTTP layer",
        "api/shared/f.ts: api/shared is pure: it imports nothing outside itself",
        "db/schema/e.ts: db imports nothing of api but api/shared",
        "site/src/admin/features/reports/b.tsx: admin features do not import each other",
        "site/src/islands/a.tsx: reporter islands never import admin code",
        "site/src/lib/d.ts: site may import only site/ and api/shared/",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

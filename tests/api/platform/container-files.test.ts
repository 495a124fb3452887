import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../../../api/config.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";

/**
 * compose.yaml and the Dockerfile as an operator's first `docker compose up` meets them (decision 071).
 * No Docker engine runs here, so what can be checked without one is checked: what they say, and that
 * what they run exists (the executable's build and commands are tested in single-binary.test.ts, the
 * bucket's creation in blob-store.test.ts).
 */

const ROOT = join(import.meta.dir, "..", "..", "..");
const read = (name: string) => readFileSync(join(ROOT, name), "utf8");

interface Service {
  image?: string;
  build?: string;
  init?: boolean;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  stop_grace_period?: string;
}
const compose = Bun.YAML.parse(read("compose.yaml")) as { services: Record<string, Service> };
const dockerfile = read("Dockerfile");

describe("compose.yaml", () => {
  test("every image is pinned to a version, none to latest", () => {
    const images = Object.entries(compose.services).flatMap(([name, service]) => (service.image && !service.build ? [[name, service.image] as const] : []));
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const [name, image] of images) expect({ name, pinned: /:[\w.-]+$/.test(image) && !image.endsWith(":latest") }).toEqual({ name, pinned: true });
  });

  test("Lantern is built from the Dockerfile, runs under an init that passes SIGTERM on, with time for the graceful stop, and mounts no source", () => {
    const lantern = compose.services.lantern!;
    expect(lantern.build).toBe(".");
    expect(lantern.init).toBe(true);
    expect(lantern.command).toEqual(["serve"]);
    expect(lantern.volumes).toEqual(["lantern-data:/var/lib/lantern"]);
    expect(Number.parseInt(lantern.stop_grace_period!, 10)).toBeGreaterThan(parseConfig({}).shutdownGraceMs / 1000);
  });

  test("its settings are valid ones, the master key is asked for, and the first account's command is named", () => {
    const environment = Object.fromEntries(Object.entries(compose.services.lantern!.environment!).map(([key, value]) => [key, key === "MASTER_KEY" ? TEST_MASTER_KEY : value]));
    const config = parseConfig(environment);
    expect({ database: config.database.kind, blobs: config.blobs.kind, mail: config.mail.kind, protocol: config.protocol }).toEqual({ database: "postgres", blobs: "s3", mail: "smtp", protocol: "http" });
    expect(compose.services.lantern!.environment!.MASTER_KEY).toContain("${LANTERN_MASTER_KEY:?");
    expect(read("compose.yaml")).toContain("docker compose exec lantern lantern create-superadmin --email");
  });
});

describe("Dockerfile", () => {
  test("builds the executable with the project's own build, and runs only it, as an unprivileged user, in exec form", () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^oven\/bun:1\.4\.\d+ AS build/);
    expect(stages[0]).toContain("RUN bun install --frozen-lockfile");
    expect(stages[0]).toContain("RUN bun run build --outfile /out/lantern");
    const final = stages[1]!;
    expect(final).toMatch(/^debian:[\w.-]+-slim\n/);
    expect(final).toContain("COPY --from=build /out/lantern /usr/local/bin/lantern");
    expect(final).toMatch(/^USER lantern$/m);
    expect(final).toContain('ENTRYPOINT ["/usr/local/bin/lantern"]');
    expect(final).toContain('CMD ["serve"]');
    // The build script takes the option the Dockerfile gives it.
    expect(read("scripts/build.ts")).toContain("outfile: { type: \"string\" }");
  });

  test("the build context leaves out what a checkout builds or keeps locally", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const path of ["node_modules", "data", "dist", "site/dist", ".git"]) expect(ignored).toContain(path);
  });
});

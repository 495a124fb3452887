# Lantern as one executable on a slim base (decision 071). Build: `docker build -t lantern .`
# The first stage builds the site, the prepared embedded database and the executable (`bun run build`);
# the second holds only that file, run by an unprivileged user.
FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY package.json bun.lock bunfig.toml ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build --outfile /out/lantern

FROM debian:bookworm-slim
# Certificates for SMTP, S3 and single sign-on over TLS; nothing else is needed beside the executable.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/lantern --create-home lantern
COPY --from=build /out/lantern /usr/local/bin/lantern
USER lantern
WORKDIR /var/lib/lantern
ENV DATA_DIR=/var/lib/lantern NODE_ENV=production PORT=3000
EXPOSE 3000
VOLUME ["/var/lib/lantern"]
# Exec form: the executable is PID 1's child under `init: true` (or PID 1 itself) and receives SIGTERM,
# so the graceful stop (decision 056) runs.
ENTRYPOINT ["/usr/local/bin/lantern"]
CMD ["serve"]

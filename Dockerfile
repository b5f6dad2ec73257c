# The reference implementation of the Partner Car Rental Distribution API v1 as a container image (README
# "Container image"). Configured by the environment only; SQLite store on the /data volume; listens on 0.0.0.0:8080.
#
#   docker build -t partner-api-reference .
#
# Where no image registry is reachable, build from local base images (release/local-base.sh):
#
#   DOCKER_BUILDKIT=0 docker build --network host \
#     --build-arg BASE_IMAGE=partner-api-node:20-local --build-arg BUILD_BASE_IMAGE=partner-api-node:20-local-build \
#     -t partner-api-reference:local .

# The runtime stage's base. The build stage's base defaults to the same image; it needs npm, and a compiler only
# where better-sqlite3's prebuilt binary cannot be downloaded.
ARG BASE_IMAGE=node:20-bookworm-slim
ARG BUILD_BASE_IMAGE=${BASE_IMAGE}

FROM ${BUILD_BASE_IMAGE} AS build
WORKDIR /src
# Dependencies first: this layer is reused while the lock file does not change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
ARG VERSION=0.0.0
LABEL org.opencontainers.image.title="partner-api-reference" \
      org.opencontainers.image.description="Reference implementation of the Partner Car Rental Distribution API v1" \
      org.opencontainers.image.version="${VERSION}" \
      io.partner-api.reference="true" \
      io.partner-api.ready-path="/health/ready"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/reference.db
WORKDIR /app
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# A numeric user, so the image needs no user database of its base; it owns only the store's volume. The client
# sandbox is a command of the image too (README "Certifying your client"): `docker run … partner-api-sandbox`.
RUN mkdir -p /data && chown 10001:10001 /data \
  && ln -s /app/dist/harness/sandbox-cli.js /usr/local/bin/partner-api-sandbox
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "dist/reference-impl/healthcheck.js"]
CMD ["node", "--enable-source-maps", "dist/reference-impl/main.js"]

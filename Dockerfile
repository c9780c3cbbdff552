# reelay as a container: the JavaScript the package ships (dist/), production dependencies only,
# Node 24 slim, a non-root user, and a HEALTHCHECK on /readyz (503 while a configured store is away).
# Build: docker build -t reelay .    Scale-out stack: compose.yaml (docs/scaling.md).

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the image has its Node; the `node` devDependency need not fetch another one.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY emulator ./emulator
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-slim
ENV NODE_ENV=production \
    REELAY_HOST=0.0.0.0 \
    REELAY_PORT=8080 \
    REELAY_MCP_PORT=8081 \
    REELAY_DATA_DIR=/data
WORKDIR /app
# jemalloc: `reelay serve` preloads it when present (src/allocator.ts; README, "Memory allocator").
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
# The image's own `node` user (uid 1000) owns the embedded store; nothing else is writable.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 8081
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.REELAY_PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# bin/reelay.js finds no TypeScript sources here and runs dist/; it carries the service's Node flags.
ENTRYPOINT ["node", "--max-semi-space-size=8", "bin/reelay.js"]
CMD ["serve"]

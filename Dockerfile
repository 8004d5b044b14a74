# The capsule runtime as a container image: the `capsule` CLI (run, serve, …) on Node 20.
# What `capsule deploy kubernetes` runs in every pod. Build from the repository root:
#   docker build -t <registry>/capsule-runtime:<tag> .

# Dependencies only (no Electron, no Studio UI, no dev tools). The build tools are here in case
# better-sqlite3 has no prebuilt binary for the platform and compiles from source.
FROM node:20-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-slim
ENV NODE_ENV=production \
    CAPSULE_HOME=/var/lib/capsule
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.base.json tsconfig.node.json ./
COPY bin ./bin
COPY src-shared ./src-shared
COPY src-main ./src-main
# A fixed non-root user (the Kubernetes manifests run as this uid); records go under CAPSULE_HOME.
RUN groupadd --system --gid 10001 capsule \
 && useradd --system --uid 10001 --gid capsule --home-dir /var/lib/capsule --shell /usr/sbin/nologin capsule \
 && mkdir -p /var/lib/capsule && chown capsule:capsule /var/lib/capsule
USER 10001:10001
# The door's port: pass the same to `capsule run --port` (the generated Deployments set both).
ENV CAPSULE_DOOR_PORT=8080
EXPOSE 8080
# Healthy when the door answers its agent card (Kubernetes uses the Deployment's probes instead).
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.CAPSULE_DOOR_PORT||8080)+'/.well-known/agent-card.json').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/bin/capsule.js"]
CMD ["--help"]

# syntax=docker/dockerfile:1.7
# Multi-stage build: install and build with dev dependencies, ship only the
# production dependencies, the build, and the migrations, as a non-root user.
ARG NODE_VERSION=20.20

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# postgres-js is patched (patch-package, run by postinstall): docs/decisions/027-postgres-js-patch.md.
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx react-router build

FROM node:${NODE_VERSION}-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# patch-package is a dev dependency: install without scripts, then take the
# patched driver from the deps stage (no production dependency has an install script).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=deps /app/node_modules/postgres ./node_modules/postgres

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/data \
    DB_SOCKET_PORT=0
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
# The server (server/app.ts) is compiled into build/server/index.js; server.mjs only launches it.
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json server.mjs ./
COPY --chown=node:node db/migrations ./db/migrations
COPY --chown=node:node scripts/migrate.mjs ./scripts/migrate.mjs
COPY --chown=node:node public ./public
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Heap budget: the same flags as scripts/server-node-args.mjs. node is PID 1 and gets
# fly's SIGTERM itself: the server drains and exits 0 (server/http.ts).
CMD ["node", "--max-old-space-size=128", "server.mjs", "build/server/index.js"]

#!/usr/bin/env node
/**
 * The container image's HEALTHCHECK: GET /health/ready on the server's own listener in this container, exit 0 when it
 * answers 200. Node rather than curl: the runtime image carries no HTTP client of its own.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { READINESS_PATH } from './http/routes/health.ts';

const env = process.env;
const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
const tls = Boolean(env.TLS_CERT_FILE && env.TLS_KEY_FILE);
const request = tls ? httpsRequest : httpRequest;
const req = request(
  // The certificate names the public host, not the container's loopback: this probe only asks "do you answer".
  { host, port: Number(env.PORT || 8080), path: READINESS_PATH, timeout: 4_000, rejectUnauthorized: false },
  (res) => {
    res.resume();
    process.exit(res.statusCode === 200 ? 0 : 1);
  },
);
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', () => process.exit(1));
req.end();

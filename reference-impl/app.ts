import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { API_PREFIX } from '../contract/constants.ts';
import { LIMITS } from '../contract/limits.ts';
import { controlRoutes } from './control/routes.ts';
import { testHookRoutes } from './control/test-hooks.ts';
import type { AccessTokens } from './domain/access-tokens.ts';
import type { ClientRegistry } from './domain/credentials.ts';
import { apiError } from './domain/failure.ts';
import type { OperatorData } from './domain/operator-data.ts';
import type { Reservations } from './domain/reservations.ts';
import type { Shopping } from './domain/shopping.ts';
import type { FaultSwitch } from './faults/switch.ts';
import { businessGuard } from './http/business-guard.ts';
import { handleError, handleFrameworkError } from './http/error-handler.ts';
import { negotiate } from './http/negotiation.ts';
import type { RateLimiter } from './http/rate-limit/index.ts';
import { healthRoutes } from './http/routes/health.ts';
import { listingRoutes } from './http/routes/listings.ts';
import { openApiRoute } from './http/routes/openapi.ts';
import { reservationRoutes } from './http/routes/reservations.ts';
import { shoppingRoutes } from './http/routes/shopping.ts';
import { tokenRoute } from './http/routes/token.ts';
import { installSandboxRecorder } from './sandbox/recorder.ts';
import { type SandboxScenario, ScenarioPlayer } from './sandbox/scenario.ts';
import type { Store } from './store/types.ts';

export interface AppDeps {
  store: Store;
  rateLimiter: RateLimiter;
  operatorData: OperatorData;
  clients: ClientRegistry;
  accessTokens: AccessTokens;
  shopping: Shopping;
  reservations: Reservations;
  apiDisabledAtStart: boolean;
  controlToken: string | undefined;
  tokenLimits: { perClientPerMinute: number; perAddressPerMinute: number };
  logger?: FastifyServerOptions['logger'];
  /** Fastify's per-request lines (default on); the logger's other lines stay. */
  logRequests?: boolean;
  /** HTTPS only (spec 5.7): key, cert and minVersion for node:https. Plain HTTP when absent. */
  https?: HttpsServerOptions;
  /** Named faults and benign variants (README "Faults"); their seams are installed on every app. */
  faults: FaultSwitch;
  /** Sandbox mode (SANDBOX_RECORD): the JSON Lines file every exchange is appended to, for the client judge. */
  sandboxRecord?: string;
  /** Sandbox mode (SANDBOX_SCENARIO): what the operator side does during a client's session. */
  sandboxScenario?: SandboxScenario;
}

/** Request logs carry method, path and status only: no query string, header or body can leak a secret. */
const SAFE_SERIALIZERS = {
  req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
};

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const logger =
    deps.logger === undefined || deps.logger === false
      ? false
      : { ...(deps.logger as object), serializers: SAFE_SERIALIZERS };
  const options: FastifyServerOptions & { https?: HttpsServerOptions } = {
    logger,
    bodyLimit: LIMITS.xml.maxBytes,
    genReqId: () => randomUUID(),
    // Parameters are matched by our own patterns; an over-long path is a 404 like any unknown resource.
    routerOptions: { maxParamLength: 256 },
    return503OnClosing: true,
    // Through the log controller: the top-level option is deprecated and warns on every start (FSTDEP023).
    logController: new LogController({ disableRequestLogging: deps.logRequests === false }),
    frameworkErrors: handleFrameworkError,
  };
  // Fastify still reads `https` to know its own protocol (the listen address it reports) with a server factory.
  if (deps.https) options.https = deps.https;
  // Our own server, so each request runs in the context the fault seams read (one AsyncLocalStorage entry).
  const https = deps.https;
  const serverFactory = ((handler: Parameters<typeof createHttpServer>[1] & {}) =>
    https
      ? createHttpsServer(https, deps.faults.wrapHandler(handler))
      : createHttpServer(deps.faults.wrapHandler(handler))) as unknown as FastifyServerOptions['serverFactory'];
  // Typed through Fastify's http overload: the routes and hooks use nothing of the server that differs under https.
  const app = Fastify({ ...options, serverFactory });

  // Bodies are decoded by the routes themselves (spec 4.13/4.14 rules on content type, UTF-8 and XML).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Before the recorder: the player's onSend must change an answer before the recorder keeps it. The player has no
  // onRequest hook, so the recorder's stays the first, and a request's arrival time is taken before anything else runs.
  const player = deps.sandboxScenario ? new ScenarioPlayer(deps.sandboxScenario) : undefined;
  player?.install(app);
  if (deps.sandboxRecord) {
    installSandboxRecorder(app, {
      file: deps.sandboxRecord,
      accessTokens: deps.accessTokens,
      ...(player ? { markOf: (request) => player.markOf(request) } : {}),
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    request.ctx = { requestId: String(request.id), nowMs: Date.now(), control: undefined as never };
    reply.header('x-request-id', request.ctx.requestId);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('vary', 'Accept');
    const control = await deps.store.getControlState();
    request.ctx.control = control;
    request.ctx.nowMs = Date.now() + control.clockOffsetMs;
  });
  deps.faults.install(app);

  const guard = businessGuard(deps);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.business) await guard(request, reply);
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request) => {
    request.ctx.representation = negotiate(request.headers.accept) ?? undefined;
    if (request.url.startsWith(API_PREFIX)) throw apiError('NOT_FOUND');
    throw apiError('NOT_FOUND', 'No such path: the partner API lives under /api/partner/v1.');
  });

  app.decorate('faults', deps.faults);
  tokenRoute(app, { ...deps, limits: deps.tokenLimits });
  openApiRoute(app);
  listingRoutes(app, deps.operatorData);
  shoppingRoutes(app, deps.shopping);
  reservationRoutes(app, deps.reservations);
  if (deps.controlToken) {
    controlRoutes(app, { ...deps, controlToken: deps.controlToken });
    testHookRoutes(app, { ...deps, controlToken: deps.controlToken });
  }
  healthRoutes(app, deps.store);

  return app;
}

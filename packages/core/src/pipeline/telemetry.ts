import { createRequire } from 'node:module';
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Attributes, Histogram, MeterProvider, TextMapGetter, Tracer, TracerProvider } from '@opentelemetry/api';
import { McpProtocolError } from '../errors/protocol-errors.js';
import type { PipelineCall } from './call.js';
import type { CallResult, Next } from './middleware.js';

/** Options of `createServer({ telemetry })`; by default the globally registered providers. */
export interface TelemetryOptions {
  tracerProvider?: TracerProvider;
  meterProvider?: MeterProvider;
}

/**
 * Where `@opentelemetry/api` (major version 1) keeps what an SDK registers: a global object that
 * exists once anything has been registered (a tracer or meter provider, a context manager, a
 * propagator, a diagnostic logger), and not before.
 */
const OPEN_TELEMETRY_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let openTelemetry: typeof OpenTelemetry | undefined;
/**
 * The OpenTelemetry API, loaded the first time a server may need it: a server built with no SDK
 * registered and no providers given never loads it (~7 ms of a stdio server's cold start).
 */
function api(): typeof OpenTelemetry {
  return (openTelemetry ??= createRequire(import.meta.url)('@opentelemetry/api') as typeof OpenTelemetry);
}

const SCOPE_NAME = '@decorum/core';
/** Bucket boundaries the MCP conventions advise for `mcp.server.operation.duration` (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** W3C trace context lives in the request's `_meta` (`traceparent`, `tracestate`), string values only. */
const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** True when the provider is the API's proxy with no SDK behind it: every span would be a no-op. */
function isNoopTracerProvider(provider: TracerProvider): boolean {
  const proxy = provider as TracerProvider & { getDelegateTracer?: (name: string) => Tracer | undefined };
  return typeof proxy.getDelegateTracer === 'function' && proxy.getDelegateTracer(SCOPE_NAME) === undefined;
}

/** The API's no-op meter hands out one shared histogram: getting that one back means no SDK. */
function isNoopHistogram(histogram: Histogram): boolean {
  return histogram === api().createNoopMeter().createHistogram('mcp.server.operation.duration');
}

/**
 * OpenTelemetry for every request, after the semantic conventions for MCP: a SERVER span named
 * `{mcp.method.name} {target}` (the tool or prompt name; resource URIs stay out of the name, as the
 * conventions advise against high cardinality) whose parent is the trace context in the request's
 * `_meta`, made the active context while the handler runs; and the `mcp.server.operation.duration`
 * histogram in seconds.
 *
 * Whether an SDK is there is decided once, when the server is built (register the SDK first):
 * without one, {@link Telemetry.create} returns `undefined` and requests pay nothing.
 */
export class Telemetry {
  private constructor(
    private readonly tracer: Tracer | undefined,
    private readonly duration: Histogram | undefined,
  ) {}

  static create(options: TelemetryOptions = {}): Telemetry | undefined {
    // Nothing registered and nothing given: the API's providers would be no-ops (the answer below).
    if (!options.tracerProvider && !options.meterProvider && (globalThis as Record<symbol, unknown>)[OPEN_TELEMETRY_GLOBAL] === undefined) return undefined;
    const { trace, metrics } = api();
    const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
    const tracer = isNoopTracerProvider(tracerProvider) ? undefined : tracerProvider.getTracer(SCOPE_NAME);
    const histogram = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE_NAME).createHistogram('mcp.server.operation.duration', {
      description: 'MCP request duration as observed on the receiver, from the time it was received until the result is sent',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    const duration = isNoopHistogram(histogram) ? undefined : histogram;
    return tracer || duration ? new Telemetry(tracer, duration) : undefined;
  }

  /** Runs `next` inside the request's span and records its duration. */
  async around(call: PipelineCall, next: Next): Promise<CallResult> {
    const { context, propagation, trace, SpanKind, SpanStatusCode } = api();
    const started = performance.now();
    const attributes = requestAttributes(call);
    const target = call.target;
    const name = target && target.kind !== 'resource' ? `${call.method} ${target.name}` : call.method;
    const parent = propagation.extract(context.active(), call.meta, META_GETTER);
    const span = this.tracer?.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
    let errorType: string | undefined;
    try {
      const result = await (span ? context.with(trace.setSpan(parent, span), next) : next());
      if ((result as { isError?: unknown }).isError === true) errorType = 'tool_error';
      return result;
    } catch (error) {
      const code = error instanceof McpProtocolError ? error.code : -32603;
      errorType = String(code);
      span?.setAttribute('rpc.response.status_code', errorType);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof McpProtocolError ? error.message : 'Internal error' });
      throw error;
    } finally {
      if (errorType !== undefined) {
        attributes['error.type'] = errorType;
        if (span) {
          span.setAttribute('error.type', errorType);
          if (errorType === 'tool_error') span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool_error' });
        }
      }
      span?.end();
      this.duration?.record((performance.now() - started) / 1000, metricAttributes(attributes));
    }
  }
}

/** Span attributes of the MCP conventions (those this server knows). */
function requestAttributes(call: PipelineCall): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': call.method,
    'mcp.protocol.version': call.protocolVersion,
    'jsonrpc.request.id': String(call.id),
  };
  const target = call.target;
  if (target?.kind === 'tool') {
    attributes['gen_ai.tool.name'] = target.name;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (target?.kind === 'prompt') {
    attributes['gen_ai.prompt.name'] = target.name;
  } else if (target?.kind === 'resource') {
    attributes['mcp.resource.uri'] = target.uri;
  }
  if (call.sessionId !== undefined) attributes['mcp.session.id'] = call.sessionId;
  if (call.peer !== undefined) attributes['client.address'] = call.peer;
  return attributes;
}

/** The histogram keeps low-cardinality attributes only (no ids, URIs or addresses). */
function metricAttributes(attributes: Attributes): Attributes {
  const out: Attributes = { 'mcp.method.name': attributes['mcp.method.name'], 'mcp.protocol.version': attributes['mcp.protocol.version'] };
  for (const key of ['gen_ai.tool.name', 'gen_ai.prompt.name', 'gen_ai.operation.name', 'error.type']) {
    if (attributes[key] !== undefined) out[key] = attributes[key];
  }
  return out;
}

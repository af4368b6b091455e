import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InvalidParamsError, Prompt, Resource, Tool, ToolError, type ServerOptions } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request, ROOT } from '@decorum-internal/test-support';

/** A reader the test collects from on demand. */
class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
let activeInHandler: { traceId: string; spanId: string } | undefined;

class Traced {
  @Tool({ input: null }) work() {
    activeInHandler = trace.getActiveSpan()?.spanContext();
    return 'done';
  }
  @Tool({ input: null }) fails() {
    throw new ToolError('no luck');
  }
  @Tool({ input: null }) refuses() {
    throw new InvalidParamsError('bad id');
  }
  @Prompt({ input: null }) greet() {
    return 'hi';
  }
  @Resource({ uri: 'mem://doc' }) doc() {
    return 'text';
  }
}

describe('OpenTelemetry', () => {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry: ServerOptions = { telemetry: { tracerProvider, meterProvider } };

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  test('a SERVER span per request after the MCP conventions, child of the traceparent in _meta, active in the handler', async () => {
    const { call } = harness([Traced], telemetry);
    const traceparent = `00-${TRACE_ID}-${PARENT_SPAN}-01`;
    const answer = await call(request(7, 'tools/call', { name: 'work' }, { extra: { traceparent, tracestate: 'vendor=x' } }));
    expect(answer?.result.content[0].text).toBe('done');
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('tools/call work');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN);
    expect(span.spanContext().traceState?.get('vendor')).toBe('x');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': '7',
      'gen_ai.tool.name': 'work',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(activeInHandler).toEqual(expect.objectContaining({ traceId: TRACE_ID, spanId: span.spanContext().spanId }));
  });

  test('without traceparent the span starts a trace; prompts, resources and lists are named per the conventions', async () => {
    const { call } = harness([Traced], telemetry);
    await call(request(1, 'prompts/get', { name: 'greet' }));
    await call(request(2, 'resources/read', { uri: 'mem://doc' }));
    await call(request(3, 'tools/list'));
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['prompts/get greet', 'resources/read', 'tools/list']);
    expect(spans[0].attributes['gen_ai.prompt.name']).toBe('greet');
    expect(spans[1].attributes['mcp.resource.uri']).toBe('mem://doc');
    expect(spans.every((s) => s.parentSpanContext === undefined)).toBe(true);
  });

  test('errors: error.type is the JSON-RPC code, or tool_error for an isError result', async () => {
    const { call } = harness([Traced], telemetry);
    await call(request(1, 'tools/call', { name: 'refuses' }));
    await call(request(2, 'tools/call', { name: 'fails' }));
    await call(request(3, 'tools/call', { name: 'missing' }));
    const [refused, failed] = exporter.getFinishedSpans();
    expect(refused.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(refused.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad id' });
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    // An unknown tool fails in routing, before the pipeline: no span (the transport's own span covers it).
    expect(exporter.getFinishedSpans()).toHaveLength(2);
  });

  test('mcp.server.operation.duration: a histogram in seconds with the low-cardinality attributes', async () => {
    const { call } = harness([Traced], telemetry);
    await call(request(1, 'tools/call', { name: 'work' }));
    await call(request(2, 'tools/call', { name: 'refuses' }));
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData;
    expect(metric.descriptor.unit).toBe('s');
    const work = metric.dataPoints.find((p) => p.attributes['gen_ai.tool.name'] === 'work' && p.attributes['error.type'] === undefined)!;
    expect(work.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2026-07-28',
      'gen_ai.tool.name': 'work',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(work.value.count).toBeGreaterThanOrEqual(1);
    expect(work.value.sum).toBeLessThan(5);
    expect(metric.dataPoints.some((p) => p.attributes['error.type'] === '-32602')).toBe(true);
  });

  test('the global providers are used when registered before the server is built; telemetry: false turns it off', async () => {
    trace.setGlobalTracerProvider(tracerProvider);
    try {
      await harness([Traced]).call(request(1, 'tools/call', { name: 'work' }));
      expect(exporter.getFinishedSpans()).toHaveLength(1);
      await harness([Traced], { telemetry: false }).call(request(2, 'tools/call', { name: 'work' }));
      expect(exporter.getFinishedSpans()).toHaveLength(1);
    } finally {
      trace.disable();
    }
  });

  test('without an SDK it is a no-op: nothing recorded, no active span in the handler', async () => {
    activeInHandler = undefined;
    const { call } = harness([Traced]);
    const answer = await call(request(1, 'tools/call', { name: 'work' }, { extra: { traceparent: `00-${TRACE_ID}-${PARENT_SPAN}-01` } }));
    expect(answer?.result.content[0].text).toBe('done');
    expect(activeInHandler).toBeUndefined();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  test('a server built with no SDK registered does not load the OpenTelemetry API; one built after a registration does', () => {
    // A plain Node process on the built package: what it loaded is in its own require cache.
    const run = spawnSync(process.execPath, ['packages/core/test/fixtures/telemetry-not-loaded.mjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ withoutSdk: false, afterRegistering: true });
  });
});

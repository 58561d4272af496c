/**
 * An OpenTelemetry tracer provider and context manager for tests, on `@opentelemetry/api` alone: the
 * OpenTelemetry SDK's packages require an older API than the one installed (their peer range ends
 * before 1.10), so a host app's SDK is stood in for by this — spans with real random ids that
 * record their parent, and an AsyncLocalStorage context manager so `context.with` works.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, context, trace, type Context, type ContextManager, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';

/** One span as recorded. */
export interface RecordedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  ended: boolean;
}

class StorageContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

/** Registers the tracer globally; returns the spans it records and a way to start a caller's span. */
export function registerTestTracer(): { spans: RecordedSpan[]; startSpan(name: string): Span; unregister(): void } {
  const spans: RecordedSpan[] = [];
  const tracer: Tracer = {
    startSpan(name, _options, parent = context.active()) {
      const parentContext = trace.getSpanContext(parent);
      const spanContext: SpanContext = { traceId: parentContext?.traceId ?? randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags: 1 };
      const record: RecordedSpan = { name, traceId: spanContext.traceId, spanId: spanContext.spanId, ...(parentContext === undefined ? {} : { parentSpanId: parentContext.spanId }), ended: false };
      spans.push(record);
      const span = trace.wrapSpanContext(spanContext);
      return Object.assign(Object.create(span) as Span, {
        spanContext: () => spanContext,
        end: () => void (record.ended = true),
        isRecording: () => true,
      });
    },
    startActiveSpan() {
      throw new Error('not used');
    },
  };
  const manager = new StorageContextManager();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
  return {
    spans,
    startSpan: (name) => tracer.startSpan(name),
    unregister: () => {
      trace.disable();
      context.disable();
    },
  };
}

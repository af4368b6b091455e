import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { isServerTarget } from '../registry/scanner.js';
import type { Logger } from 'pino';
import type { LiveChange, LiveKind } from './events.js';
import type { NotificationBus, PublishOptions } from './notification-bus.js';

/** A decorated class (built as the server builds its classes: its `resolve`, else with no arguments). */
export type LiveClass = abstract new (...args: never[]) => object;

/** What replication calls on the registry it keeps in step: the same operations a user calls. */
export interface ReplicatedRegistry {
  add(target: LiveClass): void;
  batch(changes: () => void): void;
  readonly tools: Record<'enable' | 'disable' | 'remove', (name: string) => boolean>;
  readonly prompts: Record<'enable' | 'disable' | 'remove', (name: string) => boolean>;
  readonly resources: Record<'enable' | 'disable' | 'remove', (name: string) => boolean>;
}

/**
 * The cross-instance side of a live registry: over a bus that replicates, every change made here is
 * sent to the other instances (a batch as one change) and theirs are applied here. A class added at
 * run time replicates only when it is in the `catalogue`, found on every instance by its name.
 */
export class LiveReplication {
  private readonly catalogue = new Map<string, LiveClass>();
  /** Changes made in the current batch, sent together at its end. */
  private readonly batchChanges: LiveChange[] = [];
  /** True while a change from another instance is applied: it is not sent again. */
  private applyingReplica = false;
  /** With a replicating bus every instance publishes its own list-changed events, so they stay local. */
  readonly listScope: PublishOptions | undefined;

  constructor(
    private readonly bus: NotificationBus,
    catalogue: readonly LiveClass[] | undefined,
    private readonly logger: Logger | undefined,
  ) {
    for (const target of catalogue ?? []) {
      if (typeof target !== 'function' || !isServerTarget(target))
        throw new DecorumStartupError(StartupErrorCode.INVALID_CATALOGUE, 'catalogue: each entry must be a class with @Tool, @Resource or @Prompt members');
      const known = this.catalogue.get(target.name);
      if (known && known !== target)
        throw new DecorumStartupError(
          StartupErrorCode.INVALID_CATALOGUE,
          `catalogue: two classes are named ${target.name}; instances find a class by name, so names must be unique`,
        );
      this.catalogue.set(target.name, target);
    }
    this.listScope = bus.replicate ? { local: true } : undefined;
  }

  /** Starts applying the other instances' changes to `registry`. */
  follow(registry: ReplicatedRegistry): void {
    this.bus.onReplicated?.((change) => this.apply(registry, change));
  }

  /** Sends a run-time `add` of `target` when it is a catalogue class (an instance stays local). */
  recordAdd(target: object, inBatch: boolean): void {
    if (typeof target === 'function' && this.catalogue.get(target.name) === target) this.record({ op: 'add', className: target.name }, inBatch);
  }

  /** Sends an enable, disable or remove made here. */
  recordToggle(op: 'enable' | 'disable' | 'remove', kind: LiveKind, name: string, inBatch: boolean): void {
    this.record({ op, kind, name }, inBatch);
  }

  /** At the end of the outermost batch: sends its changes as one. */
  flushBatch(): void {
    const changes = this.batchChanges.splice(0);
    if (changes.length > 0) this.bus.replicate?.(changes.length === 1 ? changes[0] : { op: 'batch', changes });
  }

  /** Sends a change made here to the other instances (when the bus replicates, and it did not come from one). */
  private record(change: LiveChange, inBatch: boolean): void {
    if (!this.bus.replicate || this.applyingReplica) return;
    if (inBatch) this.batchChanges.push(change);
    else this.bus.replicate(change);
  }

  /** Applies a change made on another instance; one that cannot apply here is logged and skipped. */
  private apply(registry: ReplicatedRegistry, change: LiveChange): void {
    const outer = this.applyingReplica;
    this.applyingReplica = true;
    try {
      switch (change.op) {
        case 'batch':
          registry.batch(() => change.changes.forEach((c) => this.apply(registry, c)));
          break;
        case 'add': {
          const target = this.catalogue.get(change.className);
          if (target) registry.add(target);
          else this.logger?.warn({ change }, `replicated live.add of ${change.className} skipped: it is not in this server's catalogue`);
          break;
        }
        default:
          registry[change.kind][change.op](change.name);
      }
    } catch (error) {
      this.logger?.warn({ change, err: error }, `replicated live change skipped: ${(error as Error).message}`);
    } finally {
      this.applyingReplica = outer;
    }
  }
}

// Import rules, checked in CI by `npm run deps:check` (dependency-cruiser over packages/*/src).
// 1. No import circle in any package, type-only imports included.
// 2. In @decorum/core, a folder imports only folders on its own floor or below (FLOORS, bottom
//    first); an upward import fails unless its folder pair is in UPWARD_ALLOWED, which may only
//    shrink. A folder on no floor fails too: a new folder is placed on a floor when it is made.

/** Core's floors, bottom first: a folder may import its own floor and the floors below it. */
const FLOORS = [
  ['protocol', 'types'],
  ['errors', 'logging', 'runtime', 'wire'],
  ['validation', 'results', 'context'],
  ['decorators'],
  ['schema', 'dto'],
  ['registry'],
  ['asks', 'mrtr'],
  ['pipeline'],
  ['live'],
  ['methods'],
  ['engine'],
  ['legacy'],
  ['server'],
  // index.ts and transport.ts (the entry files at src/) stand above every floor.
];

/** Upward folder imports still allowed, `from -> to`, each with the files that make it (11; #49 aims at 12 or fewer). */
const UPWARD_ALLOWED = [
  // asks/handler-asks.ts, asks/mrtr-seam.ts -> engine/request-scope.ts (type), engine/thenable.ts
  ['asks', 'engine'],
  // context/request-context.ts -> mrtr/input-types.ts (type): ctx names the asks' input types
  ['context', 'mrtr'],
  // decorators/use.ts, guard.ts, step-records.ts -> pipeline/middleware.ts, guard.ts (type): the step types
  ['decorators', 'pipeline'],
  // decorators/resource.ts, tool.ts -> schema/schema-type.ts (type): only decorators use it; it can move down
  ['decorators', 'schema'],
  // live/subscription.ts -> engine/request-scope.ts (type)
  ['live', 'engine'],
  // methods/* -> engine/method.ts (the method table's types), engine/thenable.ts
  ['methods', 'engine'],
  // mrtr/several-instances.ts -> server/types.ts (type): a transport says the server runs as several
  ['mrtr', 'server'],
  // pipeline/* -> engine/thenable.ts, raw-json.ts (type), linked-list.ts
  ['pipeline', 'engine'],
  // registry/list-pages.ts -> engine/raw-json.ts: pages serialized once at start-up
  ['registry', 'engine'],
  // schema/pattern-safety.ts -> registry/entries.ts (type): the source of a pattern
  ['schema', 'registry'],
  // validation/standard-schema-validator.ts -> engine/thenable.ts
  ['validation', 'engine'],
];

/** Files of the two import circles the #49 "call" branch removes (allowed here until it lands). */
const CIRCLES_REMOVED_BY_CALL = [
  // asks/handler-asks <-> engine/request-scope <-> engine/handler-context <-> mrtr/input-round: removed by #49 call
  '^packages/core/src/(asks/handler-asks|engine/request-scope|engine/handler-context|mrtr/input-round)[.]ts$',
  // pipeline/call, guard, middleware, step-timeout <-> registry/entries, registry, scanner: removed by #49 call
  '^packages/core/src/(pipeline/(call|guard|middleware|step-timeout)|registry/(entries|registry|scanner)|decorators/step-records)[.]ts$',
];

const CORE = '^packages/core/src/';
const placed = FLOORS.flat();
/** A folder of core/src on no floor. */
const unplaced = `${CORE}(?!(${placed.join('|')})/)[^/]+/`;

/** One rule per folder of core: no import of a folder on a higher floor, but for its allowed ones. */
const upwardRules = FLOORS.flatMap((floor, level) => {
  const higher = FLOORS.slice(level + 1).flat();
  if (higher.length === 0) return [];
  return floor.map((folder) => {
    const allowed = UPWARD_ALLOWED.filter(([from]) => from === folder).map(([, to]) => to);
    return {
      name: `core-upward-from-${folder}`,
      comment: `${folder}/ is on floor ${level} of core (see FLOORS): it imports no folder above it but ${allowed.join(', ') || 'none'} (UPWARD_ALLOWED)`,
      severity: 'error',
      from: { path: `${CORE}${folder}/` },
      to: {
        path: `${CORE}(${higher.join('|')})/`,
        ...(allowed.length > 0 ? { pathNot: `${CORE}(${allowed.join('|')})/` } : {}),
      },
    };
  });
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (type-only imports count): break it by moving the shared part down.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: CIRCLES_REMOVED_BY_CALL },
      to: { circular: true },
    },
    {
      name: 'core-folder-on-a-floor',
      comment: 'Every folder of core/src stands on a floor: add a new one to FLOORS in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: unplaced },
      to: {},
    },
    {
      name: 'core-folder-on-a-floor-imported',
      comment: 'An import of a folder of core/src that stands on no floor: add it to FLOORS in .dependency-cruiser.cjs.',
      severity: 'error',
      from: {},
      to: { path: unplaced },
    },
    ...upwardRules,
  ],
  options: {
    includeOnly: '^packages/[^/]+/src/',
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports are imports: a circle through types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};

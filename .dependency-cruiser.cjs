// Import rules, checked in CI by `npm run deps:check` (dependency-cruiser over packages/*/src).
// 1. No import circle in any package, type-only imports included.
// 2. In @decorum/core, a folder imports only folders on its own floor or below (FLOORS, bottom
//    first); an upward import fails unless its folder pair is in UPWARD_ALLOWED, which may only
//    shrink. A folder on no floor fails too: a new folder is placed on a floor when it is made.

/** Core's floors, bottom first: a folder may import its own floor and the floors below it. */
const FLOORS = [
  ['protocol', 'types', 'async'],
  ['errors', 'logging', 'wire', 'era'],
  ['results', 'context'],
  ['decorators'],
  ['schema'],
  ['registry'],
  ['asks'],
  ['pipeline'],
  ['live'],
  ['methods'],
  ['engine'],
  ['extensions'],
  ['legacy'],
  ['server'],
  // index.ts and transport.ts (the entry files at src/) stand above every floor.
];

/** Upward folder imports still allowed, `from -> to`, each with the files that make it: 7 pairs, 9 file imports (#49's bound: 12). */
const UPWARD_ALLOWED = [
  // asks/mrtr/several-instances.ts -> server/types.ts (type): a transport says the server runs as several
  ['asks', 'server'],
  // context/request-context.ts -> asks/ask-types.ts (type): ctx names the asks' input types
  ['context', 'asks'],
  // decorators/use.ts, guard.ts -> pipeline/middleware.ts, guard.ts (type): a step's type is the pipeline's
  ['decorators', 'pipeline'],
  // live/subscription.ts -> engine/request-channel.ts (type): a listen keeps its transport channel
  ['live', 'engine'],
  // live/notification-bus.ts -> extensions/tasks/task-store.ts (type): a bus spanning instances offers its task store
  ['live', 'extensions'],
  // methods/method.ts -> engine/meta.ts, request-channel.ts (type): a method reads the request's meta and channel
  ['methods', 'engine'],
  // schema/pattern-safety.ts -> registry/entries.ts (type): the source of a pattern, for its error
  ['schema', 'registry'],
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
      from: { path: '^packages/[^/]+/src/' },
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

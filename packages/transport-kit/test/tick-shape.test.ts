import { nodeOutput } from '@decorum-internal/test-support';

/** The states of the inline caches that build nextTick's tick object, read from V8's %DebugPrint. */
function tickObjectCaches(keep: boolean): { kept: boolean; states: string[] } {
  const out = nodeOutput(['--expose-gc', '--allow-natives-syntax', 'packages/transport-kit/test/fixtures/tick-shape-probe.mjs', ...(keep ? ['keep'] : [])]);
  const states = [...out.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
  return { kept: out.includes('KEPT true'), states };
}

// See packages/transport-kit/src/tick-shape.ts: full collections at an idle moment kill the hidden
// classes of Node's tick objects, and nextTick's caches go megamorphic for good.
describe("keepTickShape: Node's tick objects keep their hidden classes", () => {
  test('without it, idle full collections leave nextTick building its tick objects the slow way (the hazard is real on this Node)', () => {
    const { kept, states } = tickObjectCaches(false);
    expect(kept).toBe(false);
    expect(states).toHaveLength(4);
    expect(states).toContain('MEGAMORPHIC');
  });

  test('with it, the same collections leave every one of those caches monomorphic', () => {
    const { kept, states } = tickObjectCaches(true);
    expect(kept).toBe(true);
    expect(states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });
});

import { designParamTypes, MEMBER_METADATA, recordMember, type MemberRecord } from './metadata.js';
import { isStandardContext, recordStandard, standardMemberName, type DualMethodDecorator } from './standard.js';

/**
 * The body of `@Tool`, `@Resource` and `@Prompt`: one member record, written where the call form
 * puts it — the class's reflect-metadata (legacy) or its `context.metadata` (standard). A standard
 * decorator carries no parameter types, so its record has none (`input:` is then needed).
 */
export function memberDecorator(decorator: string, toRecord: (propertyKey: string, paramTypes: unknown[] | undefined) => MemberRecord): DualMethodDecorator {
  return ((target: unknown, key: string | symbol | object) => {
    if (isStandardContext(key)) {
      recordStandard(key, MEMBER_METADATA, toRecord(standardMemberName(key, 'method', decorator), undefined), decorator);
      return;
    }
    recordMember(target as object, toRecord(String(key), designParamTypes(target as object, key as string | symbol)));
  }) as DualMethodDecorator;
}

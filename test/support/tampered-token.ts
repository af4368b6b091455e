/**
 * `token` with the character at `index` replaced by another base64url character, for tests that
 * send a sealed value (MRTR `requestState`) back changed. The replacement is chosen by the character
 * it replaces, so the result always differs from `token`.
 */
export function withCharacterReplaced(token: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= token.length) {
    throw new RangeError(`index ${index} is outside a token of ${token.length} characters`);
  }
  const replacement = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + replacement + token.slice(index + 1);
}

import { randomBytes } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';
import { StateKeyRing } from '../src/asks/mrtr/state-seal.js';

const key = () => randomBytes(32);
const state = { v: 1, a: { confirm: { d: 'x', r: { action: 'accept' } } }, j: { name: 'Zebulon' } };
const header = { alg: 'dir', enc: 'A256GCM', cty: 'dev.decorum.mrtr-request-state' };

describe('MRTR requestState is a compact JWE (dir + A256GCM)', () => {
  test('jose opens a sealed state with the key, and the ring opens what jose seals', async () => {
    const k = key();
    const ring = StateKeyRing.from([k], {});
    const token = ring.seal(state);
    expect(decodeProtectedHeader(token)).toEqual(header);
    const { plaintext } = await compactDecrypt(token, k);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(state);
    const byJose = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(state))).setProtectedHeader(header).encrypt(k);
    expect(ring.open(byJose)).toEqual(state);
  });

  test('a JWE sealed with the key for another purpose or algorithm, or with another key, does not open', async () => {
    const k = key();
    const ring = StateKeyRing.from([k], {});
    const plaintext = new TextEncoder().encode(JSON.stringify(state));
    for (const other of [
      { alg: 'dir', enc: 'A256GCM' },
      { ...header, cty: 'something-else' },
      { ...header, kid: 'k1' },
    ]) {
      expect(ring.open(await new CompactEncrypt(plaintext).setProtectedHeader(other).encrypt(k))).toBeUndefined();
    }
    expect(ring.open(await new CompactEncrypt(plaintext).setProtectedHeader(header).encrypt(key()))).toBeUndefined();
    expect(ring.open(StateKeyRing.from([key()], {}).seal(state))).toBeUndefined();
  });

  test('rotation: the first key seals, every key opens', () => {
    const [oldKey, newKey] = [key(), key()];
    const sealedOld = StateKeyRing.from([oldKey], {}).seal(state);
    const rotated = StateKeyRing.from([newKey, oldKey], {});
    expect(rotated.open(sealedOld)).toEqual(state);
    expect(StateKeyRing.from([newKey], {}).open(rotated.seal(state))).toEqual(state);
    expect(StateKeyRing.from([oldKey], {}).open(rotated.seal(state))).toBeUndefined();
  });

  test("a segment spelt another way than its bytes' one base64url spelling is refused", () => {
    const ring = StateKeyRing.from([key()], {});
    const [h, , iv, body, tag] = ring.seal(state).split('.');
    // The tag's last character carries 4 unused bits: flipping its lowest one decodes to the same 16 bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = `${tag.slice(0, -1)}${alphabet[alphabet.indexOf(tag.at(-1)!) ^ 1]}`;
    expect(Buffer.from(twin, 'base64url')).toEqual(Buffer.from(tag, 'base64url'));
    expect(ring.open(`${h}..${iv}.${body}.${twin}`)).toBeUndefined();
    expect(ring.open(`${h}..${iv}.${body}.${tag}`)).toEqual(state);
    expect(ring.open(`${h}..${iv}=.${body}.${tag}`)).toBeUndefined();
  });
});

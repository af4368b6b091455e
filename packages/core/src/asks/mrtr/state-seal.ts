/**
 * Sealing of MRTR `requestState`: a compact JWE (RFC 7516) with `alg: "dir"` and `enc: "A256GCM"`,
 * `header..iv.ciphertext.tag`, the form jose's `CompactEncrypt` writes and `compactDecrypt` opens.
 * jose's JWE functions are asynchronous (WebCrypto) and a round's seal and open are not, so the
 * AES-256-GCM step runs on `node:crypto` (and jose stays out of a stdio server's start-up), with the JWE's own rules: the protected header, as sent,
 * is the additional authenticated data. The first key of the ring seals; every key opens, so a key
 * can be rotated in by putting it first and the old one second.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';

/**
 * The protected header of every state, encoded once. `cty` names the purpose: the header is
 * authenticated, so a JWE sealed for anything else (or with another algorithm) never opens here.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', cty: 'dev.decorum.mrtr-request-state' })).toString('base64url');
const AAD = Buffer.from(HEADER, 'ascii');
/** What a token starts with: the header and the empty encrypted key of `dir`. */
const PREFIX = `${HEADER}..`;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** Environment variable holding comma-separated base64 32-byte keys (first seals, all open). */
export const STATE_KEYS_ENV = 'DECORUM_STATE_KEYS';

let processKey: Buffer | undefined;

function decodeKey(key: string | Uint8Array, where: string): Buffer {
  const bytes = typeof key === 'string' ? Buffer.from(key.trim(), 'base64') : Buffer.from(key);
  if (bytes.length !== KEY_BYTES) {
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_STATE_KEY,
      `${where}: each requestState key must be ${KEY_BYTES} bytes (base64-encoded: 44 characters); got ${bytes.length} bytes. Generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"`,
    );
  }
  return bytes;
}

/** The keys that seal and open `requestState`. */
export class StateKeyRing {
  /** Whether a per-process key deserves its warning: set by transports that may run as several instances. */
  private warnsOnProcessKey = false;

  private constructor(
    private readonly keys: readonly Buffer[],
    /** True when no key was configured and a random per-process key is used. */
    readonly ephemeral: boolean,
    private readonly logger: Logger | undefined,
  ) {}

  /**
   * Keys from `keys` (the `mrtr.keys` option) or else `DECORUM_STATE_KEYS`; without either, a
   * random key shared by this process (state then opens only on this process: once a transport
   * that may run as several instances says so with {@link expectSeveralInstances}, a warning says
   * it the first time a state is sealed).
   */
  static from(keys: ReadonlyArray<string | Uint8Array> | undefined, env: NodeJS.ProcessEnv, logger?: Logger): StateKeyRing {
    if (keys && keys.length > 0)
      return new StateKeyRing(
        keys.map((k) => decodeKey(k, 'mrtr.keys')),
        false,
        logger,
      );
    const fromEnv =
      env[STATE_KEYS_ENV]?.split(',')
        .map((k) => k.trim())
        .filter(Boolean) ?? [];
    if (fromEnv.length > 0)
      return new StateKeyRing(
        fromEnv.map((k) => decodeKey(k, STATE_KEYS_ENV)),
        false,
        logger,
      );
    processKey ??= randomBytes(KEY_BYTES);
    return new StateKeyRing([processKey], true, logger);
  }

  /**
   * Says that this ring's server may run as several instances behind one address (HTTP), where a
   * per-process key breaks MRTR retries that reach another instance. stdio and in-process servers
   * are one process, where the key's origin means nothing: they never call it, so never warn.
   */
  expectSeveralInstances(): void {
    this.warnsOnProcessKey = this.ephemeral;
  }

  /** Seals a JSON value into a `requestState` token. */
  seal(payload: unknown): string {
    if (this.warnsOnProcessKey) {
      this.warnsOnProcessKey = false;
      this.logger?.warn(
        `no requestState key configured (option mrtr.keys or ${STATE_KEYS_ENV}): using a random per-process key, so MRTR retries only succeed on this process. Multi-instance deployments need a shared key.`,
      );
    }
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    cipher.setAAD(AAD);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** Opens a token with any key of the ring; `undefined` when none authenticates it. */
  open(token: string): unknown {
    if (!token.startsWith(PREFIX)) return undefined;
    const parts = token.slice(PREFIX.length).split('.');
    if (parts.length !== 3) return undefined;
    const [iv, body, tag] = parts.map(strictBase64url);
    if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || body === undefined) return undefined;
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(AAD);
        decipher.setAuthTag(tag);
        const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
        return JSON.parse(plain) as unknown;
      } catch {
        // not this key (or tampered): try the next one
      }
    }
    return undefined;
  }
}

/** The bytes of a base64url segment; `undefined` when the segment is not their one spelling (decoding alone is lenient). */
function strictBase64url(segment: string): Buffer | undefined {
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

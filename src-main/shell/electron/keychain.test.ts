import { describe, expect, it } from 'vitest';
import { keychainCipher, type SafeStorageLike } from './keychain';

// A fake safeStorage: what the desktop's secret store seals with.
const fake = (available: boolean, backend?: string): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: backend ? () => backend : undefined,
  encryptString: (s) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
  decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
});

describe('the keychain cipher', () => {
  it('seals and opens through safeStorage when the OS keychain is there', () => {
    const cipher = keychainCipher(fake(true, 'gnome_libsecret'), 'linux')!;
    const sealed = cipher.seal('sk-live');
    expect(sealed).not.toContain('sk-live');
    expect(cipher.open(sealed)).toBe('sk-live');
  });

  it('is absent without encryption, or with Linux’s fixed-key fallback (the user-only file is used then)', () => {
    expect(keychainCipher(fake(false), 'darwin')).toBeUndefined();
    expect(keychainCipher(fake(true, 'basic_text'), 'linux')).toBeUndefined();
    expect(keychainCipher(fake(true), 'darwin')).toBeDefined();
  });
});

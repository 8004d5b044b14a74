import type { SecretCipher } from '../../secrets';

// Secrets on the desktop are sealed with the OS keychain through Electron's safeStorage (macOS
// Keychain, Windows DPAPI, the Secret Service or KWallet on Linux). On a Linux desktop with none of
// those, safeStorage falls back to a fixed key ("basic_text"), which protects nothing: then the
// store is the same user-only file the web shell uses, and says so.

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
}

export function keychainCipher(safeStorage: SafeStorageLike, platform = process.platform): SecretCipher | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return undefined;
  return {
    seal: (plain) => safeStorage.encryptString(plain).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ElectronPackage } from './electron-package';

// Test support: a copy of the electron package (its real installer) in a temp folder, and a
// loopback mirror serving a fake Electron zip, so the fetch path runs end to end without internet.

export const ROOT = resolve(__dirname, '..', '..');

export function fakeElectronPackage(): { pkg: ElectronPackage; home: string; env: NodeJS.ProcessEnv } {
  const home = mkdtempSync(join(tmpdir(), 'fake-electron-'));
  const dir = join(home, 'node_modules', 'electron');
  mkdirSync(dir, { recursive: true });
  const real = join(ROOT, 'node_modules', 'electron');
  for (const f of ['install.js', 'package.json', 'checksums.json']) copyFileSync(join(real, f), join(dir, f));
  const { version } = JSON.parse(readFileSync(join(real, 'package.json'), 'utf8')) as { version: string };
  // The installer finds @electron/get through NODE_PATH; its cache goes to the temp folder.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_PATH: join(ROOT, 'node_modules'),
    electron_config_cache: join(home, 'cache'),
    electron_use_remote_checksums: '1',
  };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  delete env.ELECTRON_MIRROR;
  return { pkg: { dir, version }, home, env };
}

/** Puts a fake binary in place, as a finished install leaves it. */
export function installFakeBinary(pkg: ElectronPackage): string {
  mkdirSync(join(pkg.dir, 'dist'), { recursive: true });
  writeFileSync(join(pkg.dir, 'dist', 'electron'), '#!/bin/sh\n');
  writeFileSync(join(pkg.dir, 'dist', 'version'), `v${pkg.version}`);
  writeFileSync(join(pkg.dir, 'path.txt'), 'electron');
  return join(pkg.dir, 'dist', 'electron');
}

export type MirrorMode = 'serve' | 'missing' | 'stall';

export interface FakeMirror {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startMirror(version: string, mode: MirrorMode): Promise<FakeMirror> {
  const zip = storedZip({ electron: '#!/bin/sh\necho fake electron\n', version: `v${version}` });
  const name = `electron-v${version}-${process.platform}-${process.arch}.zip`;
  const sums = `${createHash('sha256').update(zip).digest('hex')} *${name}\n`;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (mode === 'missing') return void res.writeHead(404).end('not found');
    if (req.url === `/v${version}/SHASUMS256.txt`) return void res.end(sums);
    if (req.url !== `/v${version}/${name}`) return void res.writeHead(404).end();
    if (mode === 'stall') {
      // Headers and a first chunk, then nothing: a connection that hangs mid-download.
      res.writeHead(200, { 'content-length': String(100 * 1024 * 1024) });
      res.write(Buffer.alloc(4096));
      return;
    }
    res.end(zip);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A loopback URL nobody listens on (a port bound, then released). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return `http://127.0.0.1:${port}/`;
}

/** A zip with stored (uncompressed) entries: enough for Electron's extractor. */
function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const nameBuf = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by Unix, so the mode below counts
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE((0o100755 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

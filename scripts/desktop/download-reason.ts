// Turns a failed Electron download into one line a user can act on. Electron's installer prints
// only "fetch failed" for network errors, so the mirror is asked once more here to learn why.

const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';
const PROBE_MS = 5_000;

/** The URL Electron's installer fetches the zip from (same variables as @electron/get). */
export function electronZipUrl(
  version: string,
  env: NodeJS.ProcessEnv,
  platform = process.platform,
  arch = process.arch,
): string {
  const base =
    env.npm_config_electron_mirror ||
    env.NPM_CONFIG_ELECTRON_MIRROR ||
    env.npm_package_config_electron_mirror ||
    env.ELECTRON_MIRROR ||
    DEFAULT_MIRROR;
  const dir = (env.ELECTRON_CUSTOM_DIR || `v${version}`).replace('{{ version }}', version);
  return `${base}${dir}/electron-v${version}-${platform}-${arch}.zip`;
}

/** Why the installer failed: from what it printed, else from probing the URL. */
export async function downloadFailureReason(url: string, installerOutput: string): Promise<string> {
  const host = hostOf(url);
  const status = /Response code (\d{3})/.exec(installerOutput);
  if (status) return `${host} answered HTTP ${status[1]} for ${url}`;
  if (/checksum/i.test(installerOutput)) return 'the download did not match the checksum Electron ships with';
  try {
    const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(PROBE_MS) });
    if (!res.ok) return `${host} answered HTTP ${res.status} for ${url}`;
  } catch (err) {
    return networkReason(host, err);
  }
  const last =
    installerOutput
      .trim()
      .split('\n')
      .find((l) => l.trim()) ?? 'unknown error';
  return `the installer failed: ${last.trim().slice(0, 200)}`;
}

function networkReason(host: string, err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { name?: string }).name;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `no network: cannot resolve ${host}`;
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ECONNRESET':
      return `${host} closed the connection`;
    case 'ETIMEDOUT':
    case 'TimeoutError':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `${host} did not answer`;
    default:
      return `cannot reach ${host}: ${(cause?.message ?? (err as Error).message ?? String(err)).slice(0, 200)}`;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

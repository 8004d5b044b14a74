// How delegate_task finds a capsule named by the model. A URL (or host:port) is a peer door as
// is; any other name is asked of the formation the session belongs to, which knows either a door
// that is already running or a manifest to start as a sub-capsule of this session.

/** A capsule of the formation, as delegate_task can reach it. */
export type FormationTarget =
  | {
      kind: 'door';
      url: string;
      capsule?: string;
      version?: string;
      /** The running session behind the door, when the formation knows it (named in residue). */
      sessionId?: string;
      workdir?: string;
    }
  | {
      kind: 'manifest';
      /** Started as a child session of the delegating one, records under its children/ folder. */
      manifestPath: string;
      capsule?: string;
    }
  | {
      /** A member that is not running and cannot be started (its manifest does not load): why, in words. */
      kind: 'unavailable';
      error: string;
    };

type DoorTarget = Extract<FormationTarget, { kind: 'door' }>;

/** The formation a session belongs to: capsule name -> where to reach it. */
export interface FormationResolver {
  resolve(name: string): FormationTarget | undefined | Promise<FormationTarget | undefined>;
  /** Names the model may use (listed in the tool description and in "unknown capsule" errors). */
  names?(): string[];
  /** What the formation knows of a door given by URL (capsule, version, session), if anything. */
  byUrl?(url: string): DoorTarget | undefined | Promise<DoorTarget | undefined>;
  /** Each member by the name the model uses, with the URLs its door has or will have (for `to: "*"`). */
  doors?(): { name: string; urls: string[] }[];
  /** Members that cannot be reached now, each with why (told to the model with the names). */
  unavailable?(): { name: string; reason: string }[];
}

/** A formation from a fixed table (tests, the CLI's formation launcher). */
export function staticFormation(targets: Record<string, FormationTarget>): FormationResolver {
  return {
    resolve: (name) => targets[name],
    names: () => Object.keys(targets),
    // A manifest target has no door until a delegation starts it; only running doors are reachable by "*".
    doors: () => Object.entries(targets).map(([name, t]) => ({ name, urls: t.kind === 'door' ? [t.url] : [] })),
  };
}

export type ResolvedTarget = FormationTarget | { kind: 'unknown'; error: string };

/** A peer URL, a bare host:port (taken as http), or a formation name. */
export async function resolveTarget(to: string, formation?: FormationResolver): Promise<ResolvedTarget> {
  const text = to.trim();
  let url: string | undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) url = text;
  else if (/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}(\/.*)?$/i.test(text)) url = `http://${text}`;
  if (url !== undefined) {
    // The model's URL is the one used; the formation may only say whose door it is.
    const known = await formation?.byUrl?.(url);
    return known ? { ...known, url } : { kind: 'door', url };
  }
  const found = formation ? await formation.resolve(text) : undefined;
  if (found) return found;
  const names = formation?.names?.() ?? [];
  return {
    kind: 'unknown',
    error: `unknown capsule "${text}": not a URL, and ${names.length ? `not one of this formation's capsules (${names.join(', ')})` : 'this session belongs to no formation'}`,
  };
}

/** A capsule of a formation as the Studio knows it: its manifest, and its session when running. */
export interface FormationMember {
  /** Names the model may use for it: the formation id and the manifest's name. */
  names: string[];
  manifestPath: string;
  /** network.internal_port of its manifest: where its door will be once launched. */
  port?: number;
  session?: { id: string; url: string; workdir: string; manifest: { name: string; version: string } };
  /** Why its manifest does not load now (e.g. "line 30, column 1: a [ list is not closed with ]"), if it does not. */
  problem?: string;
}

/** Why a member that is not running cannot be reached: the same words for the model's listing and a delegation. */
const notStartable = (problem: string) => `not running, and its manifest does not load (${problem})`;

/**
 * A formation read fresh at every delegation: a running member is reached at its door (so the
 * allow list decides), one that is not running is started as a sub-capsule from its manifest, and
 * one that is not running and whose manifest does not load is refused with that reason.
 */
export function liveFormation(members: () => FormationMember[]): FormationResolver {
  return {
    resolve(name) {
      const m = members().find((x) => x.names.includes(name));
      if (!m) return undefined;
      if (m.session) {
        const s = m.session;
        return {
          kind: 'door',
          url: s.url,
          capsule: s.manifest.name,
          version: s.manifest.version,
          sessionId: s.id,
          workdir: s.workdir,
        };
      }
      if (m.problem)
        return { kind: 'unavailable', error: `capsule "${name}" is in the formation but ${notStartable(m.problem)}` };
      return { kind: 'manifest', manifestPath: m.manifestPath };
    },
    unavailable: () =>
      members()
        .filter((m) => !m.session && m.problem)
        .map((m) => ({ name: m.names[m.names.length - 1], reason: notStartable(m.problem!) })),
    names: () => [...new Set(members().flatMap((m) => m.names))],
    doors: () =>
      members().map((m) => ({
        name: m.names[m.names.length - 1],
        urls: [m.session?.url, m.port ? `http://127.0.0.1:${m.port}` : undefined].filter((u): u is string => !!u),
      })),
  };
}

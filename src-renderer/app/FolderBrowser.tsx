import { useCallback, useEffect, useState } from 'react';
import type { FolderListing } from '../../src-shared/contract';
import { describeError, invoke, useStudio } from '../store';

interface FolderBrowserProps {
  /** The folder shown changed: the typed path follows it. */
  onVisit(dir: string): void;
  onOpen(dir: string): void;
  onCreate(dir: string): void;
  busy: boolean;
}

/**
 * The web shell's folder picker: a browser page cannot show the system's folder dialog, so the
 * core lists the folders (only under the user's home) and the user clicks down to the one wanted.
 */
export function FolderBrowser({ onVisit, onOpen, onCreate, busy }: FolderBrowserProps) {
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [hidden, setHidden] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (dir: string | undefined, showHidden: boolean) => {
      try {
        const next = await invoke('workspace.browse', { ...(dir ? { dir } : {}), hidden: showHidden });
        setListing(next);
        setError(null);
        onVisit(next.dir);
        return true;
      } catch (err) {
        setError(describeError(err));
        return false;
      }
    },
    [onVisit],
  );
  useEffect(() => {
    // Start at the home; where the home is out of bounds (a Studio attached to another host), at the open workspace.
    void load(undefined, false).then((ok) => {
      const open = useStudio.getState().workspace?.dir;
      if (!ok && open) void load(open, false);
    });
  }, [load]);

  return (
    <div className="folder-browser" role="group" aria-label="Folder browser">
      <div className="folder-browser-bar">
        <button
          type="button"
          className="btn btn-small"
          disabled={!listing?.parent}
          onClick={() => listing?.parent && void load(listing.parent, hidden)}
          aria-label="Up to the folder above"
        >
          ↑ Up
        </button>
        <span className="folder-browser-path mono" title={listing?.dir}>
          {listing ? (listing.dir === listing.home ? `${listing.dir} (home)` : listing.dir) : 'Loading…'}
        </span>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={hidden}
            onChange={(e) => {
              setHidden(e.target.checked);
              void load(listing?.dir, e.target.checked);
            }}
          />{' '}
          Hidden folders
        </label>
      </div>
      {error ? (
        <p className="folder-browser-error" role="alert">
          {error}
        </p>
      ) : null}
      {listing ? (
        listing.folders.length ? (
          <ul className="folder-browser-list" aria-label={`Folders in ${listing.dir}`}>
            {listing.folders.map((f) => (
              <li key={f.path}>
                <button
                  type="button"
                  className="folder-entry"
                  onClick={() => void load(f.path, hidden)}
                  aria-label={`Folder ${f.name}${f.workspace ? ' (workspace)' : ''}`}
                >
                  <span className="folder-entry-name">{f.name}</span>
                  {f.workspace ? <span className="folder-entry-tag">workspace</span> : null}
                  <span className="folder-entry-go" aria-hidden="true">
                    ›
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="field-hint">No folders here.</p>
        )
      ) : null}
      {listing?.truncated ? (
        <p className="field-hint">Only the first folders are listed: type the path of the one you want.</p>
      ) : null}
      {listing ? (
        <div className="dialog-actions">
          <button type="button" className="btn" disabled={busy} onClick={() => onCreate(listing.dir)}>
            New workspace here
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => onOpen(listing.dir)}>
            Open this folder
          </button>
        </div>
      ) : null}
    </div>
  );
}

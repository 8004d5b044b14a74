import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useReactFlow } from '@xyflow/react';
import { useStudio, type FlowEdge, type FlowNode } from '../../store';
import { autoLayoutAll, FIT_VIEW_ANIMATED, useFocusNode, useNewNodeSpot, useSelectAll } from '../../features/graph';
import { fuzzyFilter, type FuzzyMatch } from './fuzzy';
import { paletteCommands, type PaletteCommand } from './paletteCommands';
import { closePalette, usePaletteOpen } from '../../ui/paletteState';
import './commands.css';

type Entry = { kind: 'capsule'; id: string; name: string; detail: string } | { kind: 'command'; cmd: PaletteCommand };

const LIMIT = 50;
const textOf = (e: Entry) => (e.kind === 'capsule' ? e.name : `${e.cmd.title} ${e.cmd.keywords ?? ''}`);

/** Ctrl+K / Cmd+K: find a capsule (selects and centres it) or run a command, by typing part of its name. */
export function CommandPalette() {
  return usePaletteOpen() ? <PaletteDialog /> : null;
}

function PaletteDialog() {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const focusNode = useFocusNode();
  const selectAll = useSelectAll();
  const spot = useNewNodeSpot();
  const capsules = useStudio((s) => s.capsules);
  const capsuleIds = useStudio((s) => s.capsuleIds);
  const remotes = useStudio((s) => s.remotes);
  const remoteIds = useStudio((s) => s.remoteIds);

  const commands = useMemo(
    () =>
      paletteCommands({
        fitView: () => void rf.fitView(FIT_VIEW_ANIMATED),
        autoLayout: autoLayoutAll,
        selectAll,
        centre: () => spot(),
      }),
    [rf, selectAll, spot],
  );
  const entries = useMemo<Entry[]>(
    () => [
      ...capsuleIds.map((id): Entry => ({
        kind: 'capsule',
        id,
        name: capsules[id].name,
        detail: capsules[id].role ?? 'capsule',
      })),
      ...remoteIds.map((id): Entry => ({
        kind: 'capsule',
        id,
        name: remotes[id].card?.name ?? remotes[id].url,
        detail: 'remote agent',
      })),
      ...commands.map((cmd): Entry => ({ kind: 'command', cmd })),
    ],
    [capsules, capsuleIds, remotes, remoteIds, commands],
  );
  // What can run now comes first; a disabled command still shows (so the user learns it exists), last.
  const results = useMemo(() => {
    const found = fuzzyFilter(query, entries, textOf, LIMIT);
    const runnable = (e: Entry) => e.kind === 'capsule' || e.cmd.enabled();
    return [...found.filter((r) => runnable(r.item)), ...found.filter((r) => !runnable(r.item))];
  }, [query, entries]);
  const current = Math.min(active, Math.max(0, results.length - 1));

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    input.current?.focus();
    return () => {
      if (previous?.isConnected) previous.focus?.();
    };
  }, []);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const choose = (e: Entry | undefined) => {
    if (!e) return;
    if (e.kind === 'command' && !e.cmd.enabled()) return;
    closePalette();
    if (e.kind === 'capsule') requestAnimationFrame(() => focusNode(e.id));
    else void e.cmd.run();
  };

  const onKeyDown = (ev: KeyboardEvent) => {
    const n = results.length;
    if (ev.key === 'ArrowDown') setActive(n ? (current + 1) % n : 0);
    else if (ev.key === 'ArrowUp') setActive(n ? (current - 1 + n) % n : 0);
    else if (ev.key === 'Home' && ev.ctrlKey) setActive(0);
    else if (ev.key === 'End' && ev.ctrlKey) setActive(Math.max(0, n - 1));
    else if (ev.key === 'PageDown') setActive(Math.min(n - 1, current + 8));
    else if (ev.key === 'PageUp') setActive(Math.max(0, current - 8));
    else if (ev.key === 'Enter') choose(results[current]?.item);
    else if (ev.key === 'Escape') closePalette();
    else if (ev.key === 'Tab') {
      // Focus stays in the palette: the list is reached with the arrows.
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
  };

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="cmdk-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closePalette()}>
      <div className="cmdk" role="dialog" aria-modal="true" aria-label="Command palette" onKeyDown={onKeyDown}>
        <input
          ref={input}
          className="cmdk-input"
          role="combobox"
          aria-label="Find a capsule or a command"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={results.length ? optionId(current) : undefined}
          placeholder="Find a capsule or run a command…"
          value={query}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        <ul ref={list} id={listId} className="cmdk-list" role="listbox" aria-label="Results">
          {results.map(({ item, match }, i) => {
            const disabled = item.kind === 'command' && !item.cmd.enabled();
            return (
              <li
                key={item.kind === 'capsule' ? `c:${item.id}` : `k:${item.cmd.id}`}
                id={optionId(i)}
                data-index={i}
                role="option"
                aria-selected={i === current}
                aria-disabled={disabled || undefined}
                className="cmdk-option"
                onMouseMove={() => i !== current && setActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(item)}
              >
                <span className="cmdk-kind" data-kind={item.kind}>
                  {item.kind === 'capsule' ? item.detail : 'command'}
                </span>
                <span className="cmdk-title">
                  {item.kind === 'capsule' ? highlight(item.name, match) : highlight(item.cmd.title, match)}
                </span>
                {item.kind === 'command' && item.cmd.hint ? <kbd className="cmdk-hint">{item.cmd.hint}</kbd> : null}
              </li>
            );
          })}
        </ul>
        {results.length === 0 ? (
          <p className="cmdk-empty" role="status">
            Nothing matches “{query}”.
          </p>
        ) : null}
        <p className="cmdk-help muted">↑↓ to move · Enter to run · Esc to close</p>
      </div>
    </div>
  );
}

/** The title with its matched characters in bold (matches beyond the title, in keywords, are not shown). */
function highlight(text: string, match: FuzzyMatch): ReactNode {
  const hit = new Set(match.indices.filter((i) => i < text.length));
  if (hit.size === 0) return text;
  const parts: ReactNode[] = [];
  let run = '';
  let inHit = false;
  const flush = (k: number) => {
    if (run) parts.push(inHit ? <mark key={k}>{run}</mark> : run);
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    if (hit.has(i) !== inHit) {
      flush(i);
      inHit = hit.has(i);
    }
    run += text[i];
  }
  flush(text.length);
  return parts;
}

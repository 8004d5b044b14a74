import { Suspense, useRef, useState } from 'react';
import { CanvasMenu } from '../features/graph';
import { ExportDialog, HistoryDialog, TelemetryDialog, TestsDialog } from './lazyFeatures';
import { closeTool, openTool, useOpenTool, type ToolName } from '../ui/toolsState';

// The toolbar's Tools menu: what works on the whole workspace beyond running it (export it for
// Kubernetes, run its tests, send its traces to OpenTelemetry). The palette opens the same dialogs.

export const TOOLS: { name: ToolName; label: string }[] = [
  { name: 'export', label: 'Export for Kubernetes…' },
  { name: 'tests', label: 'Tests…' },
  { name: 'history', label: 'History and publish…' },
  { name: 'telemetry', label: 'OpenTelemetry…' },
];

export function ToolsMenu() {
  const button = useRef<HTMLButtonElement>(null);
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={at !== null}
        onClick={() => {
          const r = button.current!.getBoundingClientRect();
          setAt(at ? null : { x: r.left, y: r.bottom + 4 });
        }}
      >
        Tools ▾
      </button>
      {at ? (
        <Suspense fallback={null}>
          <CanvasMenu
            x={at.x}
            y={at.y}
            label="Tools"
            items={TOOLS.map((t) => ({ label: t.label, run: () => openTool(t.name) }))}
            onClose={() => setAt(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** The open tool's dialog, if any. */
export function ToolDialogs() {
  const tool = useOpenTool();
  const dialog =
    tool === 'export' ? (
      <ExportDialog onClose={closeTool} />
    ) : tool === 'tests' ? (
      <TestsDialog onClose={closeTool} />
    ) : tool === 'history' ? (
      <HistoryDialog onClose={closeTool} />
    ) : tool === 'telemetry' ? (
      <TelemetryDialog onClose={closeTool} />
    ) : null;
  return dialog ? <Suspense fallback={null}>{dialog}</Suspense> : null;
}

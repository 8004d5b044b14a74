import { useEffect, useLayoutEffect, useRef } from 'react';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, indentUnit } from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Annotation, EditorSelection, EditorState, StateEffect, Transaction } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import type { IssueView } from '../../../src-shared/contract';
import { checkManifest } from './manifestCheck';
import { closeStep, recordEdit, redoEdit, undoEdit } from './form/formHistory';
import { manifestCompletion } from './code/completion';
import { manifestHover } from './code/hover';
import { toDiagnostics } from './code/lint';
import { registerRevealer } from './code/reveal';
import { studioHighlight, studioTheme } from './code/theme';

// The raw manifest in CodeMirror 6. The text is the source of truth: the editor changes only what
// the user types (comments and ${VAR} stay as written), and the store's copy is written back into
// the editor only when it differs (a Revert, a reload, an undo), as one change. There is one undo
// history per capsule for the form and this editor alike (form/formHistory.ts): a pause in typing
// ends a step, as a form field does, and Ctrl+Z here undoes the latest edit whichever editor made
// it, one step per edit. The Studio's global Ctrl+Z leaves editable fields alone
// (app/useShortcuts.ts), so the graph's undo never fires from here.

export interface YamlEditorProps {
  /** The capsule whose manifest this is: its undo history is the form's. */
  capsuleId: string;
  value: string;
  /** The core's issues for `authority.text` (the saved file, with its environment); other texts are checked here. */
  authority?: { text: string; issues: IssueView[] };
  onChange(text: string): void;
  onSave(): void;
}

/** Marks the transactions that carry the store's text into the editor (never echoed back). */
const fromStore = Annotation.define<boolean>();

/** Asks the linter to run again: the core's issues for the saved text arrived. */
const relint = StateEffect.define<null>();

/** Diagnostics follow typing after this pause, in milliseconds. */
const LINT_DELAY_MS = 250;

/** A pause in typing this long ends an undo step (CodeMirror's own history groups the same way). */
const STEP_PAUSE_MS = 500;

const varMarks = new MatchDecorator({
  regexp: /\$\{[A-Za-z_][A-Za-z0-9_]*\}/g,
  decoration: Decoration.mark({ class: 'cm-var' }),
});
const highlightVars = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = varMarks.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = varMarks.updateDeco(u, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

/** The smallest single change that turns `a` into `b` (common prefix and suffix kept). */
function diff(a: string, b: string): { from: number; to: number; insert: string } {
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: b.slice(start, endB) };
}

export function YamlEditor({ capsuleId, value, authority, onChange, onSave }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const props = useRef({ capsuleId, authority, onChange, onSave });
  props.current = { capsuleId, authority, onChange, onSave };
  const lastEdit = useRef(0);

  /** Undo or redo one step of the capsule's history; the store's text then comes back in. */
  const step = (v: EditorView, take: (id: string, draft: string) => string | null): boolean => {
    const id = props.current.capsuleId;
    const text = take(id, v.state.doc.toString());
    lastEdit.current = 0; // the next keystroke starts a step of its own
    if (text !== null) props.current.onChange(text);
    return true;
  };

  useLayoutEffect(() => {
    const lint = linter(
      (v) => {
        const text = v.state.doc.toString();
        const known = props.current.authority;
        return toDiagnostics(v.state.doc, known && known.text === text ? known.issues : checkManifest(text));
      },
      { delay: LINT_DELAY_MS, needsRefresh: (u) => u.transactions.some((tr) => tr.effects.some((e) => e.is(relint))) },
    );
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          lintGutter(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          highlightSelectionMatches(),
          // The side panel is narrow: long values (a system prompt, a scripted reply) wrap instead of scrolling sideways.
          EditorView.lineWrapping,
          EditorState.tabSize.of(2),
          indentUnit.of('  '),
          yaml(),
          studioHighlight,
          highlightVars,
          autocompletion({ override: [manifestCompletion], icons: false }),
          manifestHover,
          lint,
          search({ top: true }),
          keymap.of([
            { key: 'Mod-s', preventDefault: true, run: () => (props.current.onSave(), true) },
            ...completionKeymap,
            ...searchKeymap,
            ...lintKeymap,
            indentWithTab,
            ...defaultKeymap,
          ]),
          // Undo and redo read the key itself: a keymap's "Mod-z" also matches Ctrl+Shift+z when the
          // key arrives lower-case (as synthetic and some layouts' events do), which would undo twice.
          EditorView.domEventHandlers({
            keydown(e, v) {
              if (!(e.ctrlKey || e.metaKey) || e.altKey) return false;
              const key = e.key.toLowerCase();
              const take =
                key === 'z' ? (e.shiftKey ? redoEdit : undoEdit) : key === 'y' && !e.shiftKey ? redoEdit : null;
              if (!take) return false;
              e.preventDefault();
              return step(v, take);
            },
          }),
          EditorView.contentAttributes.of({ 'aria-label': 'Manifest YAML', spellcheck: 'false' }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || u.transactions.every((tr) => tr.annotation(fromStore) === true)) return;
            const { capsuleId: id } = props.current;
            const now = Date.now();
            if (now - lastEdit.current > STEP_PAUSE_MS) closeStep(id);
            lastEdit.current = now;
            const text = u.state.doc.toString();
            recordEdit(id, 'yaml', u.startState.doc.toString(), text);
            props.current.onChange(text);
          }),
          studioTheme,
        ],
      }),
    });
    view.current = v;
    registerRevealer({
      revealLine(line, column) {
        const l = v.state.doc.line(Math.min(Math.max(line, 1), v.state.doc.lines));
        const at = Math.min(l.from + Math.max((column ?? 1) - 1, 0), l.to);
        v.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: 'center' }) });
        v.focus();
      },
    });
    return () => {
      registerRevealer(null);
      v.destroy();
      view.current = null;
    };
    // The view is made once per mount; later values arrive through the effect below.
  }, []);

  // The store's text, written in only when it is not what the editor already holds.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    if (current === value) return;
    v.dispatch({
      changes: diff(current, value),
      annotations: [fromStore.of(true), Transaction.addToHistory.of(false)],
    });
  }, [value]);

  // New core issues for the saved text: show them now rather than at the next keystroke.
  useEffect(() => {
    view.current?.dispatch({ effects: relint.of(null) });
  }, [authority?.text, authority?.issues]);

  return <div ref={host} className="yaml-editor" />;
}

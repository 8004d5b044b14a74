import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

// The editor in the Studio's colours: every colour is one of theme.css's variables, so one theme
// follows the light and dark palettes (and the toggle) without being rebuilt.

export const studioTheme = EditorView.theme({
  '&': {
    height: '100%',
    color: 'var(--text)',
    backgroundColor: 'var(--bg-panel)',
    fontFamily: 'var(--mono)',
    fontSize: '12px',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '18px' },
  '.cm-content': { caretColor: 'var(--text)', padding: '8px 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--accent-soft) !important',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--bg-hover) 55%, transparent)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-panel)',
    color: 'var(--text-faint)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)', color: 'var(--text-muted)' },
  '.cm-lineNumbers .cm-gutterElement': { padding: '0 8px 0 10px' },
  '.cm-gutter-lint': { width: '12px' },
  '.cm-lintRange-error': {
    backgroundImage: 'none',
    textDecoration: 'underline wavy var(--danger)',
    textDecorationSkipInk: 'none',
    textUnderlineOffset: '3px',
  },
  '.cm-lintPoint-error:after': { borderBottomColor: 'var(--danger)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--text)',
    border: '1px solid var(--border-strong)',
    borderRadius: '6px',
    boxShadow: 'var(--shadow-lg)',
    fontFamily: 'var(--font)',
  },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--mono)', maxHeight: '16em' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-text)',
  },
  '.cm-completionDetail': { color: 'inherit', opacity: 0.7, marginLeft: '1em', fontStyle: 'normal' },
  '.cm-completionInfo': { maxWidth: '320px', padding: '6px 8px', lineHeight: 1.4 },
  '.cm-tooltip-lint': { padding: 0 },
  '.cm-diagnostic': { padding: '4px 8px', maxWidth: '420px' },
  '.cm-diagnostic-error': { borderLeft: '4px solid var(--danger)' },
  '.cm-diagnosticSource': { fontFamily: 'var(--mono)', color: 'var(--text-muted)', opacity: 1 },
  '.cm-panels': { backgroundColor: 'var(--bg-sunken)', color: 'var(--text)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-panel.cm-search': { padding: '6px 28px 6px 8px', fontFamily: 'var(--font)', fontSize: '12px' },
  '.cm-panel.cm-search label': { color: 'var(--text-muted)', fontSize: '12px' },
  '.cm-panel.cm-search [name=close]': { color: 'var(--text-muted)', fontSize: '16px', right: '6px' },
  '.cm-textfield': {
    backgroundColor: 'var(--bg-panel)',
    color: 'var(--text)',
    border: '1px solid var(--border-strong)',
    borderRadius: '4px',
    padding: '2px 6px',
    fontFamily: 'var(--mono)',
    fontSize: '12px',
  },
  '.cm-button': {
    backgroundImage: 'none',
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--text)',
    border: '1px solid var(--border-strong)',
    borderRadius: '4px',
    padding: '1px 8px',
    fontSize: '12px',
    fontFamily: 'var(--font)',
  },
  '.cm-button:active': { backgroundImage: 'none', backgroundColor: 'var(--bg-hover)' },
  '.cm-searchMatch': { backgroundColor: 'var(--warn-soft)', outline: '1px solid var(--warn)' },
  '.cm-searchMatch.cm-searchMatch-selected': {
    backgroundColor: 'var(--accent-soft)',
    outline: '1px solid var(--accent)',
  },
  '.cm-matchingBracket': { backgroundColor: 'var(--accent-soft)', outline: '1px solid var(--accent)' },
  '.cm-var': { color: 'var(--rehearsal)', fontWeight: 600 },
});

export const studioHighlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: t.definition(t.propertyName), color: 'var(--accent)' },
    { tag: t.string, color: 'var(--ok)' },
    { tag: t.special(t.string), color: 'var(--warn)' },
    { tag: t.lineComment, color: 'var(--text-faint)', fontStyle: 'italic' },
    { tag: [t.separator, t.meta], color: 'var(--text-muted)' },
    { tag: [t.labelName, t.typeName, t.keyword, t.attributeValue], color: 'var(--busy)' },
  ]),
);

import { hoverTooltip, type Tooltip } from '@codemirror/view';
import { MANIFEST_DOCS, outlineAt, outlinePathText } from '../../../../src-shared/manifest';
import { yamlKeyAt } from './yamlContext';

// Hovering a key shows what it means, its kind and the values it takes, from the manifest schema.

const KIND: Record<string, string> = {
  map: 'a map of fields',
  list: 'a list',
  text: 'text',
  number: 'a number',
  boolean: 'true or false',
  choice: 'one of the values below',
  any: 'any value',
};

export const manifestHover = hoverTooltip((view, pos): Tooltip | null => {
  const line = view.state.doc.lineAt(pos);
  const at = yamlKeyAt(view.state.sliceDoc(0, line.to), pos);
  if (!at) return null;
  const path = [...at.path, at.key];
  const node = outlineAt(path);
  const name = outlinePathText(path);
  const doc = MANIFEST_DOCS[name];
  if (!node && !doc) return null;
  return {
    pos: at.from,
    end: at.to,
    above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'yaml-hover';
      dom.setAttribute('role', 'tooltip');
      const title = dom.appendChild(document.createElement('code'));
      title.textContent = name;
      if (doc) dom.appendChild(document.createElement('p')).textContent = doc;
      if (node) {
        const kinds = [node.kind, ...(node.forms ?? [])].filter((k, i, all) => all.indexOf(k) === i && k !== 'choice');
        const facts = [node.required ? 'required' : 'optional', kinds.map((k) => KIND[k] ?? k).join(' or ')].filter(
          Boolean,
        );
        if (node.values?.length && node.kind !== 'boolean') facts.push(`values: ${node.values.join(', ')}`);
        dom.appendChild(document.createElement('p')).textContent = facts.join(' · ');
        (dom.lastChild as HTMLElement).className = 'yaml-hover-facts';
      } else {
        dom.appendChild(document.createElement('p')).textContent = 'not a manifest key here';
      }
      return { dom };
    },
  };
});

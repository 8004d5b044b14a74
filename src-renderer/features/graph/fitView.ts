import type { FitViewOptions } from '@xyflow/react';
import type { FlowNode } from '../../store';

/**
 * How "fit the view" frames the formation, everywhere (on open, Fit view, the menu, the palette):
 * clear of the tool buttons at the top and of the zoom controls and the minimap at the bottom,
 * so no node is drawn under them.
 */
export const FIT_VIEW: FitViewOptions<FlowNode> = {
  padding: { top: '64px', right: '32px', bottom: '136px', left: '56px' },
  maxZoom: 1,
};
export const FIT_VIEW_ANIMATED: FitViewOptions<FlowNode> = { ...FIT_VIEW, duration: 200 };

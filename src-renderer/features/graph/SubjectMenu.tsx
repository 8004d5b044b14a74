import { CanvasMenu } from './CanvasMenu';
import { menuItems, menuTitle, type MenuSubject, type MenuTools } from './canvasMenuItems';

/** The context menu for what was right-clicked (loaded on the first right-click, see useCanvasMenu). */
export function SubjectMenu(props: { x: number; y: number; subject: MenuSubject; tools: MenuTools; onClose(): void }) {
  const { x, y, subject, tools, onClose } = props;
  return <CanvasMenu x={x} y={y} label={menuTitle(subject)} items={menuItems(subject, tools)} onClose={onClose} />;
}

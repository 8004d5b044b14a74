import { Suspense, type ComponentType } from 'react';
import { useStudio, type StudioState } from '../store';
import { lazyPart } from './PartBoundary';

// A dialog or bar the first screen does not show, whose code loads the first time it opens: until
// `isOpen` says so it renders nothing and loads nothing, keeping the window's first JavaScript small.
// A failed load says so in its place, with Reload (PartBoundary).

export function lazyWhen(
  isOpen: (s: StudioState) => boolean,
  load: () => Promise<ComponentType>,
  what = 'this part of the Studio',
): ComponentType {
  const Lazy = lazyPart(what, load);
  return function LazyWhenOpen() {
    return useStudio(isOpen) ? (
      <Suspense fallback={null}>
        <Lazy />
      </Suspense>
    ) : null;
  };
}

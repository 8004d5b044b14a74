import { lazy, Suspense, type ComponentType } from 'react';
import { useStudio, type StudioState } from '../store';

// A dialog or bar the first screen does not show, whose code loads the first time it opens: until
// `isOpen` says so it renders nothing and loads nothing, keeping the window's first JavaScript small.

export function lazyWhen(isOpen: (s: StudioState) => boolean, load: () => Promise<ComponentType>): ComponentType {
  const Lazy = lazy(async () => ({ default: await load() }));
  return function LazyWhenOpen() {
    return useStudio(isOpen) ? (
      <Suspense fallback={null}>
        <Lazy />
      </Suspense>
    ) : null;
  };
}

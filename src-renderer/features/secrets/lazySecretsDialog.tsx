import { lazy, Suspense, type ComponentProps } from 'react';

// The secrets dialog loads when first opened: the toolbar's button is on the first screen, the
// dialog (and its styles) are not.
const Loaded = lazy(() => import('./SecretsDialog').then((m) => ({ default: m.SecretsDialog })));

export function SecretsDialog(props: ComponentProps<typeof Loaded>) {
  return (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  );
}

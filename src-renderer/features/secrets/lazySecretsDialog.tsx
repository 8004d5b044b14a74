import { Suspense, type ComponentProps } from 'react';
import { lazyPart } from '../../ui/PartBoundary';

// The secrets dialog loads when first opened: the toolbar's button is on the first screen, the
// dialog (and its styles) are not.
const Loaded = lazyPart('the secrets', () => import('./SecretsDialog').then((m) => m.SecretsDialog));

export function SecretsDialog(props: ComponentProps<typeof Loaded>) {
  return (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  );
}

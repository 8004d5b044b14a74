import { Component, lazy, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { ErrorText } from './ErrorText';

// A part of the window that failed (its code could not load, e.g. the Studio was rebuilt or
// updated under an open page, or it threw while drawing) says so in its own place, with Reload,
// instead of taking the whole page down to a blank window.

interface Props {
  /** What the part is, in words for the user: "the manifest editor". */
  what: string;
  children: ReactNode;
}

export class PartBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`${this.props.what} failed`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // A module that would not load is most often a page older than the Studio that serves it.
    const loading = /dynamically imported module|Importing a module script failed|Loading chunk/i.test(error.message);
    return (
      <div className="part-failed">
        <ErrorText
          error={`Could not ${loading ? 'load' : 'show'} ${this.props.what}: ${error.message}${
            loading ? ' (the Studio may have been rebuilt or updated since this page opened).' : ''
          }`}
        >
          <button type="button" className="btn btn-small" onClick={() => window.location.reload()}>
            Reload
          </button>
        </ErrorText>
      </div>
    );
  }
}

/**
 * React.lazy with a PartBoundary around it: a part whose code loads on first use, and says so in
 * its place (with Reload) when that load fails. The caller keeps its own Suspense fallback.
 */
export function lazyPart<P extends object>(what: string, load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await load() }));
  return function LazyPart(props: P) {
    return (
      <PartBoundary what={what}>
        <Lazy {...props} />
      </PartBoundary>
    );
  };
}

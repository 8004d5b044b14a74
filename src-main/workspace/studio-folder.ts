// The Studio's own folder inside a workspace: what it keeps there (the console's conversations) is
// the user's, not the formation's, so the watcher reloads nothing when it changes.
export const STUDIO_FOLDER = '.studio';

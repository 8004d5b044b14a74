import { MAX_FILE_BYTES, MAX_FILES } from '../../../src-shared/contract';

/** A file picked in the console, read as base64 for a file part. */
export interface PickedFile {
  name: string;
  mediaType?: string;
  bytes: string;
  size: number;
}

const kib = (n: number) => Math.floor(n / 1024);

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/**
 * Adds files to those already picked, within what one message carries (MAX_FILES files,
 * MAX_FILE_BYTES in all): the sizes are checked before anything is read.
 */
export async function addFiles(picked: PickedFile[], files: File[]): Promise<{ files: PickedFile[]; error?: string }> {
  if (picked.length + files.length > MAX_FILES)
    return { files: picked, error: `At most ${MAX_FILES} files in one message.` };
  const total = [...picked, ...files].reduce((n, f) => n + f.size, 0);
  if (total > MAX_FILE_BYTES)
    return {
      files: picked,
      error: `Files up to ${kib(MAX_FILE_BYTES)} KiB in all; these add up to ${kib(total)} KiB.`,
    };
  try {
    const read = await Promise.all(
      files.map(async (f) => ({
        name: f.name,
        size: f.size,
        bytes: await base64Of(f),
        ...(f.type ? { mediaType: f.type } : {}),
      })),
    );
    return { files: [...picked.filter((p) => !read.some((r) => r.name === p.name)), ...read] };
  } catch (err) {
    return { files: picked, error: (err as Error).message };
  }
}

/** uniqueID and trackerID: the opaque keys of devices and sensors. */

/**
 * Longest uniqueID or trackerID accepted, in characters (code points). The interface
 * says only "string"; real serial numbers and IMEIs are far shorter, and this keeps a
 * percent-encoded path well inside what proxies and servers take (docs/commands.md).
 */
export const KEY_MAX_LENGTH = 128;

/**
 * Why a uniqueID or trackerID cannot be sent, or undefined when it can. Keys are opaque:
 * spaces, '/', '#', '%', and any letter are fine (paths percent-encode them, bodies send
 * them unchanged); only an empty or blank key, control characters, or a key longer than
 * KEY_MAX_LENGTH are refused.
 */
export function keyProblem(value: string): string | undefined {
  if (value.trim() === '') return 'must not be empty';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'control characters are not allowed';
  const length = [...value].length;
  if (length > KEY_MAX_LENGTH) return `${length} characters is longer than the limit of ${KEY_MAX_LENGTH}`;
  return undefined;
}

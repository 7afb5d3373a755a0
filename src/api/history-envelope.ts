/**
 * What a history reply says around its reports (`{"features":[…],"success":…}`, or an error in
 * its place): the few values worth reading, kept as the splitter (feature-splitter.ts) passes
 * them, and the verdict at the body's end.
 */
import { ApiError } from '../errors.js';
import { excerpt } from './reply.js';
import { collectionValues, errorInSuccess, errorReplyError } from './tolerant.js';

const ENVELOPE_KEYS = new Set(['success', 'error', 'error_description', 'message', 'detail', 'errors', 'status', 'features']);

export class Envelope {
  private readonly values: Record<string, unknown> = {};

  /** The value of `key` (success, error…, a features value that is not an array), when worth reading; small by nature. */
  keep(key: string, text: string): void {
    if (!ENVELOPE_KEYS.has(key)) return;
    try {
      this.values[key] = JSON.parse(text) as unknown;
    } catch {
      // malformed: the value is not used
    }
  }

  /**
   * Throws unless the reply was the service's: a `success` text and a `features` key (`sawFeatures`:
   * its array was read). A reply whose body is an error (no `success`, an `error`: see
   * errorInSuccess) fails with the service's text; one without `features` (a proxy's
   * `{"success":"…"}`) is no empty history that a checkpoint would then skip. No reports in
   * any JSON form of an empty collection (`[]`, `{}`, null) is an empty history.
   */
  check(sawFeatures: boolean, status: number, unlike: (what: string) => ApiError): void {
    const v = this.values;
    const failure = errorInSuccess(v);
    if (failure !== undefined) throw errorReplyError(status, failure, (text) => excerpt(text, 300));
    const features = sawFeatures || 'features' in v;
    if (!features && !('success' in v)) throw unlike('has neither "success", "features" nor "error"');
    if (typeof v.success !== 'string') throw unlike('success' in v ? 'has a "success" that is not a text' : 'has no "success"');
    if (!features) throw unlike('has no "features"');
    if (!sawFeatures && collectionValues(v.features)?.length !== 0) throw unlike('has a "features" that is not an array');
  }
}

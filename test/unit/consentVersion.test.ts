/**
 * A buyer's consent to immediate delivery is stored with its version (issue 42): the version must
 * name one text. The words are recorded here by their SHA-256 beside the version they had; new
 * words under an old version would make every stored consent say something it did not.
 */
import {createHash} from 'node:crypto';
import {immediateDeliveryRequest, immediateDeliveryVersion} from '../../src/config';

const RECORDED = {
  version: '2026-11-26',
  sha256: 'cae17af11edbc71b5e01616111c6b2b71d44b229eaea3798ab750280fa789aa0',
};

it('the immediate-delivery request has new words only under a new version', () => {
  const sha256 = createHash('sha256').update(immediateDeliveryRequest).digest('hex');
  if (sha256 !== RECORDED.sha256) {
    // The words changed: a new version, and the record moves with it.
    expect(immediateDeliveryVersion).not.toBe(RECORDED.version);
    throw new Error(
      `The words of immediateDeliveryRequest changed: record {version: '${immediateDeliveryVersion}', sha256: '${sha256}'} here.`,
    );
  }
  expect(immediateDeliveryVersion).toBe(RECORDED.version);
});

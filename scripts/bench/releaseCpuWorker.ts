/**
 * The worker `npm run bench:release-cpu` runs in workerd: it builds one release batch of the size
 * asked (`?recipients=N`) with the worker's own code and encodes it as the body of the request to
 * Mailgun, without sending it. Nothing else, no D1: workerd's CPU time for the request is the batch's.
 */
import {releaseForm} from '../../worker/src/releases/releaseForm';
import {renderNotes} from '../../worker/src/releases/notes';

const notes =
  '## What changed\n\n- **Faster** builds, and a [new guide](https://example.com/guide).\n- Fixes to the sign-in page.\n';
const release = {tag: 'v1.1.0', name: 'Version 1.1', body: notes, html_url: null, notesHtml: renderNotes(notes)};

export default {
  async fetch(request: Request): Promise<Response> {
    const size = Number(new URL(request.url).searchParams.get('recipients') ?? '1');
    const form = await releaseForm({
      settings: {siteOrigin: 'https://example.com'},
      secret: 'bench-unsubscribe-secret',
      release,
      audience: 'updates',
      releaseId: 1,
      unsubscribeUrl: 'https://example.com/api/unsubscribe',
      recipients: Array.from({length: size}, (_, index) => `buyer-${index}@example.com`),
    });
    const body = await new Request('https://api.mailgun.net/v3/example.com/messages', {
      method: 'POST',
      body: form,
    }).arrayBuffer();
    return new Response(String(body.byteLength));
  },
};

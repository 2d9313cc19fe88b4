/**
 * The Mailgun webhook reads its signature fields on the raw bytes before any parser runs
 * (`worker/src/webhooks/formFields.ts`). Property tests (fast-check): on forms as the fetch API
 * serialises them (URLSearchParams; FormData through Response, files among the fields), it counts
 * the fields exactly and reads the same text values as the fetch API's own parser (Node's here;
 * workerd's in edges.test.ts).
 */
import fc from 'fast-check';
import {formShape, readFields} from '../../worker/src/webhooks/formFields';

const RUNS = 500;
const NAMES = ['timestamp', 'token', 'signature'] as const;
const name = fc.oneof(fc.constantFrom(...NAMES, 'subject', 'body-plain', 'attachment-1'), fc.string({maxLength: 12}));
const value = fc.oneof(
  fc.string({maxLength: 40}),
  fc.string({unit: 'grapheme', maxLength: 10}),
  fc.constantFrom('', '&=+%', 'a\r\nb', '--x'),
);
const fields = fc.array(fc.record({name, value, file: fc.boolean()}), {maxLength: 30});

const bytes = async (body: BodyInit) => new Uint8Array(await new Response(body).arrayBuffer());

test('urlencoded: as many fields as URLSearchParams writes, and the same first values', async () => {
  await fc.assert(
    fc.asyncProperty(fields, async (list) => {
      const form = new URLSearchParams(list.map(({name: key, value: text}) => [key, text]));
      const body = await bytes(form.toString());
      const shape = formShape(body, 'application/x-www-form-urlencoded', 1000);
      if (shape === null || shape === 'tooMany') throw new Error(`not read: ${String(shape)}`);
      expect(shape.fields).toHaveLength(Math.max(1, list.length));
      const read = readFields(body, shape, NAMES);
      for (const key of NAMES) expect(read.get(key)).toBe(form.get(key) ?? undefined);
    }),
    {numRuns: RUNS},
  );
});

test('multipart: as many parts as FormData writes, and the same first text values (files are not values)', async () => {
  await fc.assert(
    fc.asyncProperty(fields, async (list) => {
      const form = new FormData();
      for (const {name: key, value: text, file} of list) {
        if (file) form.append(key, new Blob([text]), 'notes.txt');
        else form.append(key, text);
      }
      const response = new Response(form);
      const type = response.headers.get('content-type')!;
      const body = await bytes(await response.arrayBuffer());
      const shape = formShape(body, type, 1000);
      if (shape === null || shape === 'tooMany') throw new Error(`not read: ${String(shape)}`);
      expect(shape.fields).toHaveLength(list.length);
      const parsed = await new Response(body, {headers: {'content-type': type}}).formData();
      const read = readFields(body, shape, NAMES);
      for (const key of NAMES)
        expect(read.get(key)).toBe(parsed.getAll(key).find((entry) => typeof entry === 'string'));
    }),
    {numRuns: RUNS},
  );
});

test('more fields than allowed is tooMany, counted without reading them; a body that is no form is null', async () => {
  const many = await bytes('a=1' + '&'.repeat(300));
  expect(formShape(many, 'application/x-www-form-urlencoded', 200)).toBe('tooMany');
  expect(formShape(await bytes('a=1' + '&'.repeat(199)), 'application/x-www-form-urlencoded', 200)).not.toBe('tooMany');
  const part = '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n\r\n';
  expect(formShape(await bytes(`${part.repeat(201)}--b--\r\n`), 'multipart/form-data; boundary=b', 200)).toBe(
    'tooMany',
  );
  expect(formShape(await bytes(`${part.repeat(200)}--b--\r\n`), 'multipart/form-data; boundary="b"', 200)).not.toBe(
    'tooMany',
  );
  for (const type of ['application/json', 'text/plain', 'multipart/form-data', ''])
    expect(formShape(many, type, 200)).toBeNull();
});

import { UriTemplate } from '../src/registry/uri-template.js';

/** URIs as hosts send them: raw IRIs and percent-encoded URIs match alike, values come decoded. */
describe('UriTemplate.match', () => {
  const simple = new UriTemplate('notes://{name}');
  const reserved = new UriTemplate('file:///project/{+path}');
  const inner = new UriTemplate('test://template/{id}/data');

  test.each([
    ['notes://café', 'café'],
    ['notes://caf%C3%A9', 'café'],
    ['notes://caf%c3%a9', 'café'],
    ['notes://日本語', '日本語'],
    ['notes://%F0%9F%93%9D', '📝'],
    ['notes://📝', '📝'],
    ['notes://plain', 'plain'],
  ])('{name} matches %s as %j', (uri, name) => {
    expect(simple.match(uri)).toEqual({ name });
  });

  test.each([
    ['file:///project/été/notes.txt', 'été/notes.txt'],
    ['file:///project/%C3%A9t%C3%A9/notes.txt', 'été/notes.txt'],
    ['file:///project/a%20b.txt', 'a b.txt'],
    ['file:///project/src/main.rs', 'src/main.rs'],
  ])('{+path} matches %s as %j', (uri, path) => {
    expect(reserved.match(uri)).toEqual({ path });
  });

  test.each(['notes://%zz', 'notes://%E9', 'notes://caf%C3', 'notes://%', 'notes://\ud800', 'file:///project/%zz/a', 'file:///project/\udc00'])(
    'a URI whose escapes do not decode (%j) matches nothing, without throwing',
    (uri) => {
      expect(simple.match(uri)).toBeUndefined();
      expect(reserved.match(uri)).toBeUndefined();
    },
  );

  test('a malformed escape inside a path segment matches nothing', () => {
    expect(inner.match('test://template/%zz/data')).toBeUndefined();
    expect(inner.match('test://template/x%20y/data')).toEqual({ id: 'x y' });
  });

  test('a simple variable still refuses what its expansion could not produce', () => {
    expect(simple.match('notes://a/b')).toBeUndefined();
    expect(simple.match('notes://a b')).toBeUndefined();
  });
});

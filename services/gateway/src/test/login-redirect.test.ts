import type { IncomingMessage } from 'node:http';
import { fileLoginRedirect, prefersImage } from '../login-redirect';

const req = (method: string, accept?: string) => ({ method, headers: accept === undefined ? {} : { accept } }) as IncomingMessage;

describe('prefersImage (Django\'s get_preferred_type between text/html and image/png)', () => {
  it.each([
    [undefined, false],
    ['*/*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8', false],
    ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', true],
    ['image/png', true],
    ['text/html;q=0.5, image/png', true],
    ['image/png;q=0.5, text/html', false],
    // A type range ranks below an exact type of the same quality; q=0 refuses.
    ['image/*, text/html', false],
    ['text/*;q=0.9, image/*', true],
    ['image/png;q=0, */*', false],
    ['audio/*, application/octet-stream', false],
    // An unreadable quality counts as 1, as Django reads it.
    ['text/html;q=0.2, image/png;q=abc', true],
  ])('%s -> %s', (accept, expected) => {
    expect(prefersImage(accept)).toBe(expected);
  });
});

describe('fileLoginRedirect', () => {
  it('redirects uploads unless an image is preferred, avatars only for a page, nothing else', () => {
    expect(fileLoginRedirect(req('GET'), '/user_uploads/2/a b/x.txt?y=1')).toEqual({ location: '/login/?next=/user_uploads/2/a%20b/x.txt%3Fy%3D1' });
    expect(fileLoginRedirect(req('HEAD', 'image/*'), '/user_uploads/2/ab/x.png')).toEqual({ location: null });
    expect(fileLoginRedirect(req('GET', 'text/html'), "/avatar/a'b@x.test")).toEqual({ location: '/login/?next=%2Favatar%2Fa%27b%40x.test' });
    expect(fileLoginRedirect(req('GET', 'text/html'), '/avatar/%E0%A4%A')).toEqual({ location: null });
    expect(fileLoginRedirect(req('GET'), '/avatar/7')).toEqual({ location: null });
    expect(fileLoginRedirect(req('GET', 'text/html'), '/user_avatars/2/realm/icon.png')).toBeUndefined();
    expect(fileLoginRedirect(req('POST', 'text/html'), '/user_uploads/2/ab/x.txt')).toBeUndefined();
  });
});

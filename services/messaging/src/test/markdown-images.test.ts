// Uploaded images linked from a message, at the rendering level: the context says what each
// upload looks like (markdown/upload-previews.ts reads it from the database), so these tests
// build it by hand. send-images.test.ts takes the same path through sends and the thumbnail job.
import { emptyRenderContext, renderMarkdown } from '../markdown';
import type { RenderContext } from '../markdown';
import { LOADING_IMAGE_SRC, rewriteThumbnailPlaceholders, type UploadPreview } from '../markdown/upload-previews';

const PATH = '2/ab/cdef/x.png';
const THUMBNAILED: UploadPreview = { contentType: 'image/png', width: 16, height: 12, thumbnail: { url: `/user_uploads/thumbnail/${PATH}/840x560.webp`, animated: false } };
const LOADING: UploadPreview = { contentType: 'image/png', width: 16, height: 12, thumbnail: null };

function ctx(previews: Record<string, UploadPreview> = { [PATH]: THUMBNAILED }, enabled = true): RenderContext {
  const c = emptyRenderContext('http://chat.test');
  c.inlineImagePreview = enabled;
  c.uploadPreviews = new Map(Object.entries(previews));
  return c;
}

const LINK = `<a href="/user_uploads/${PATH}">x.png</a>`;
const IMG = `<img data-original-content-type="image/png" data-original-dimensions="16x12" src="/user_uploads/thumbnail/${PATH}/840x560.webp">`;
const BLOCK = `<div class="message_inline_image"><a href="/user_uploads/${PATH}" title="x.png">${IMG}</a></div>`;

describe('uploaded images in messages', () => {
  it('shows a thumbnailed image after its paragraph, as the family renders it', () => {
    const r = renderMarkdown(`[x.png](/user_uploads/${PATH})`, ctx());
    expect(r.html).toBe(`<p>${LINK}</p>\n${BLOCK}`);
    expect(r).toMatchObject({ hasImage: true, hasAttachment: true, hasLink: true });
  });

  it('shows the loading placeholder while the thumbnail is being made', () => {
    expect(renderMarkdown(`see [x.png](/user_uploads/${PATH}) now`, ctx({ [PATH]: LOADING })).html).toBe(
      `<p>see ${LINK} now</p>\n<div class="message_inline_image"><a href="/user_uploads/${PATH}" title="x.png">` +
        `<img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="16x12" src="${LOADING_IMAGE_SRC}"></a></div>`,
    );
  });

  it('marks an animated image’s thumbnail', () => {
    const gif = '2/cd/anim/a.gif';
    const preview: UploadPreview = { contentType: 'image/gif', width: 128, height: 56, thumbnail: { url: `/user_uploads/thumbnail/${gif}/840x560-anim.webp`, animated: true } };
    expect(renderMarkdown(`[a.gif](/user_uploads/${gif})`, ctx({ [gif]: preview })).html).toBe(
      `<p><a href="/user_uploads/${gif}">a.gif</a></p>\n<div class="message_inline_image"><a href="/user_uploads/${gif}" title="a.gif">` +
        `<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="128x56" src="/user_uploads/thumbnail/${gif}/840x560-anim.webp"></a></div>`,
    );
  });

  it('keeps a bare link when the realm turned previews off, and for uploads it has no preview of', () => {
    expect(renderMarkdown(`[x.png](/user_uploads/${PATH})`, ctx(undefined, false)).html).toBe(`<p>${LINK}</p>`);
    const other = renderMarkdown('[doc.pdf](/user_uploads/2/ab/zzzz/doc.pdf)', ctx());
    expect(other.html).toBe('<p><a href="/user_uploads/2/ab/zzzz/doc.pdf">doc.pdf</a></p>');
    expect(other.hasImage).toBe(false);
  });

  it('previews nothing inside quotes', () => {
    expect(renderMarkdown(`> [x.png](/user_uploads/${PATH})`, ctx()).html).toBe(`<blockquote>\n<p>${LINK}</p>\n</blockquote>`);
    expect(renderMarkdown(`\`\`\`quote\n[x.png](/user_uploads/${PATH})\n\`\`\``, ctx()).html).toBe(`<blockquote>\n<p>${LINK}</p>\n</blockquote>`);
  });

  it('puts a paragraph’s previews after it in order, each URL once', () => {
    const second = '2/ab/efgh/y.png';
    const r = renderMarkdown(`[x.png](/user_uploads/${PATH}) [y.png](/user_uploads/${second})\n\nagain [x.png](/user_uploads/${PATH})`, ctx({ [PATH]: THUMBNAILED, [second]: LOADING }));
    expect(r.html).toBe(
      `<p>${LINK} <a href="/user_uploads/${second}">y.png</a></p>\n${BLOCK}` +
        `<div class="message_inline_image"><a href="/user_uploads/${second}" title="y.png"><img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="16x12" src="${LOADING_IMAGE_SRC}"></a></div>` +
        `<p>again ${LINK}</p>`,
    );
  });

  it('replaces a paragraph that is only the bare link, and ends a list item with its preview', () => {
    const bare = renderMarkdown(`[/user_uploads/${PATH}](/user_uploads/${PATH})`, ctx());
    expect(bare.html).toBe(`<div class="message_inline_image"><a href="/user_uploads/${PATH}">${IMG}</a></div>`);
    const list = renderMarkdown(`- look: [x.png](/user_uploads/${PATH})\n- other`, ctx());
    expect(list.html).toBe(`<ul>\n<li>look: ${LINK}${BLOCK}</li>\n<li>other</li>\n</ul>`);
  });

  it('previews nothing in a message with more than 24 links', () => {
    const many = Array.from({ length: 24 }, (_, i) => `https://example.com/${i}`).join(' ');
    expect(renderMarkdown(`${many} [x.png](/user_uploads/${PATH})`, ctx()).html).not.toContain('message_inline_image');
    const fewer = Array.from({ length: 23 }, (_, i) => `https://example.com/${i}`).join(' ');
    expect(renderMarkdown(`${fewer} [x.png](/user_uploads/${PATH})`, ctx()).html).toContain('message_inline_image');
  });
});

describe('rewriteThumbnailPlaceholders', () => {
  const loading = renderMarkdown(`[x.png](/user_uploads/${PATH})`, ctx({ [PATH]: LOADING })).html;

  it('swaps the placeholder for the thumbnail once it exists', () => {
    expect(rewriteThumbnailPlaceholders(loading, PATH, THUMBNAILED)).toBe(`<p>${LINK}</p>\n${BLOCK}`);
  });

  it('drops the preview of what turned out to be no image, and leaves other uploads and pending ones alone', () => {
    expect(rewriteThumbnailPlaceholders(loading, PATH, null)).toBe(`<p>${LINK}</p>`);
    expect(rewriteThumbnailPlaceholders(loading, '2/ab/other/z.png', THUMBNAILED)).toBe(loading);
    expect(rewriteThumbnailPlaceholders(loading, PATH, LOADING)).toBe(loading);
  });
});

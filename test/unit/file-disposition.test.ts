/** Pure helpers of the file service: the Content-Disposition header and the tag list. */
import { contentDisposition } from '../../lambdas/domain/files/download-headers';
import { parseTags } from '../../lambdas/domain/files/file-service';
import { ValidationError } from '../../lambdas/shared/errors';

describe('contentDisposition', () => {
  it.each([
    ['photo.png', `inline; filename="photo.png"; filename*=UTF-8''photo.png`],
    ['résumé €.pdf', `inline; filename="r_sum_ _.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.pdf`],
    ['a"b\\c.txt', `inline; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`],
    ["it's (1)*.txt", `inline; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`],
    ['日本.txt', `inline; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`],
    ['😀.png', `inline; filename="__.png"; filename*=UTF-8''%F0%9F%98%80.png`],
    ['line\r\nbreak.txt', `inline; filename="line__break.txt"; filename*=UTF-8''line%0D%0Abreak.txt`],
  ])('inline %j', (fileName, expected) => {
    // Act
    const header = contentDisposition('inline', fileName);
    // Assess
    expect(header).toBe(expected);
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
  });

  it('attachment', () => {
    // Act
    const header = contentDisposition('attachment', 'report.pdf');
    // Assess
    expect(header).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  });
});

describe('parseTags', () => {
  it.each([
    [undefined, []],
    ['', []],
    [' , ,, ', []],
    ['a', ['a']],
    [' red , front,, red ,  ,side ', ['red', 'front', 'side']],
    ['Red,red', ['Red', 'red']],
  ])('%j → %j', (tags, expected) => {
    // Act
    const list = parseTags(tags);
    // Assess
    expect(list).toEqual(expected);
  });

  it('takes 50 tags of 100 characters; refuses 51 tags and a tag of 101 characters', () => {
    // Prepare
    const fifty = Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(100, 'x'));
    // Act
    const accepted = parseTags(fifty.join(','));
    const tooMany = () => parseTags([...fifty, 'one more'].join(','));
    const tooLong = () => parseTags('y'.repeat(101));
    // Assess
    expect(accepted).toHaveLength(50);
    expect(tooMany).toThrow(ValidationError);
    expect(tooLong).toThrow(ValidationError);
  });
});

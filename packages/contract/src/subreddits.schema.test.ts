import { describe, expect, it } from 'vitest';
import { splitSubredditNames } from './subreddits.schema';

describe('splitSubredditNames', () => {
  it('splits on commas and new lines, strips r/ and drops blanks and repeats', () => {
    expect(splitSubredditNames('r/freelance, smallbusiness\n\n /r/Design ,,\r\nFreelance\n  ')).toEqual([
      'freelance',
      'smallbusiness',
      'Design',
    ]);
  });

  it('takes the name out of a pasted address of a subreddit or of a page in it', () => {
    expect(
      splitSubredditNames([
        'https://www.reddit.com/r/freelance/',
        'old.reddit.com/r/SaaS/top/?t=week',
        'reddit.com/r/startups/comments/abc123/some_post/',
        'https://www.reddit.com/r/FREELANCE',
      ]),
    ).toEqual(['freelance', 'SaaS', 'startups']);
  });

  it('gives nothing for blank input, and keeps what is no name for the caller to refuse', () => {
    expect(splitSubredditNames(' , \n  \n')).toEqual([]);
    expect(splitSubredditNames('not a name!')).toEqual(['not a name!']);
    expect(splitSubredditNames(' r/ \n/r/, R/,freelance')).toEqual(['r/', '/r/', 'freelance']);
  });
});

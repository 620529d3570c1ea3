/** Topic-independent phrase banks. */

export const ASK_TITLES = [
  'Is there a tool that can {task}?',
  'Can anyone recommend a {thing} {context}?',
  'Looking for an app to {task}',
  'What {thing} do you use to {task}?',
  'Any recommendations for a {thing} {context}?',
  'Is there software to {task} automatically?',
  'Need a {thing} {context}, suggestions?',
  'Best way to {task}? Looking for a tool',
  'Does anyone know an app that helps {task}?',
  'Recommendations for a {thing}? Tried a few and hated them',
];

export const ASK_BODIES = [
  'Is there a tool that can {task}? Ideally {context}.',
  'Can anyone recommend a {thing}? I need something {context}.',
  'I am looking for an app to {task}. Happy to pay for something good.',
  'What are you all using to {task}? Everything I find is either bloated or abandoned.',
  'Looking for recommendations for a {thing} {context}. Open to anything at this point.',
];

export const ASK_CLOSERS = [
  'Thanks in advance!',
  'Any pointers appreciated.',
  'Budget is around $20 a month.',
  'Free or cheap would be ideal.',
  'Would love to hear what has worked for you.',
  'Please no affiliate links, just honest experiences.',
  '',
];

export const DISCUSSION_CLOSERS = [
  'Curious what others think.',
  'Would love to hear your experiences.',
  'Happy to answer questions in the comments.',
  'Am I overthinking this?',
  'Edit: thanks for all the replies!',
  '',
];

export const ASK_COMMENTS = [
  'Same question here, is there a tool that can {task}?',
  'Following. Can anyone recommend a {thing} {context}?',
  'I am also looking for an app to {task}, did you find anything?',
  'Does anyone know a {thing} that does this without a huge monthly fee?',
];

export const GENERIC_COMMENTS = [
  'This is the way.',
  'Great write-up, thanks for sharing.',
  'I had the exact same problem last year.',
  'Saving this thread for later.',
  'Honestly I just do it manually in a spreadsheet.',
  'Check the sidebar and the wiki, there is a lot there.',
  'Congrats, that is a big milestone!',
  'Came here to say this.',
  'Depends a lot on your situation, can you share more details?',
  'Underrated comment.',
];

export const NAME_FIRST = [
  'quiet',
  'rusty',
  'happy',
  'lazy',
  'brave',
  'sleepy',
  'salty',
  'cosmic',
  'lucky',
  'sneaky',
  'mellow',
  'grumpy',
  'silver',
  'crimson',
  'amber',
  'wild',
  'tiny',
  'giant',
  'urban',
  'northern',
  'coastal',
  'frozen',
  'spicy',
  'gentle',
  'Captain',
  'Professor',
  'Doctor',
  'Agent',
  'Mister',
  'Lady',
  'Sir',
  'Chef',
  'Coach',
  'Uncle',
];

export const NAME_SECOND = [
  'harbor',
  'maple',
  'otter',
  'falcon',
  'pixel',
  'badger',
  'walrus',
  'cactus',
  'pancake',
  'lantern',
  'river',
  'comet',
  'Tiger',
  'Panda',
  'Waffle',
  'Noodle',
  'Biscuit',
  'Pickle',
  'Turtle',
  'Raven',
  'Moose',
  'Llama',
  'Penguin',
  'Koala',
  'builder',
  'runner',
  'gardener',
  'hacker',
  'baker',
  'wanderer',
  'dad',
  'mom',
  'nerd',
  'guy',
  'gal',
  'fan',
];

export const NAME_STYLES = [
  '{a}_{b}_{n}',
  '{A}{B}{n}',
  '{a}-{b}',
  '{A}{B}',
  'throwaway_{n}{m}',
  '{b}{n}',
  '{A}_{B}',
];

export const STOP_REPLIES = [
  'please stop messaging me',
  "not interested, don't contact me again",
  'Stop spamming me. Reported.',
  'Please remove me from whatever list this is. Do not message me again.',
  'No thanks. Please stop sending me DMs.',
];

export const INTERESTED_REPLIES = [
  'Oh nice, yes I am still looking! Can you send me a link?',
  'This sounds like exactly what I need. How much does it cost?',
  'Thanks for reaching out, does it work on mobile too?',
  'Interesting, is there a free trial?',
  'Yes! I have been searching for weeks. Tell me more.',
];

export const NEUTRAL_REPLIES = [
  'Thanks, but I already found something that works for me.',
  'What is the catch?',
  'Appreciate it, I will take a look when I have time.',
];

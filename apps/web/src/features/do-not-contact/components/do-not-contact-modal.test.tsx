import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { doNotContactEndpoints, type TDoNotContactEntry } from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { page, renderScreen } from '../../../test/discovery.test-support';
import { DNC_TEXTS, DoNotContactButton } from './do-not-contact-modal';

const user = userEvent.setup({ delay: null });

function entry(overrides: Partial<TDoNotContactEntry> = {}): TDoNotContactEntry {
  return {
    username: 'by_hand',
    reason: 'manual',
    note: null,
    created_at: '2030-01-01T00:00:00Z',
    removable: true,
    ...overrides,
  };
}

const REFUSAL = entry({ username: 'angry_al', reason: 'refusal', note: 'Replied: "stop"', removable: false });
const MANUAL = entry({ username: 'by_hand', note: 'met at a meetup' });

async function open(readOnly = false, onClosed?: () => void) {
  renderScreen(<DoNotContactButton readOnly={readOnly} onClosed={onClosed} />);
  await user.click(screen.getByRole('button', { name: 'Do-not-contact list' }));
  return screen.findByRole('dialog', { name: DNC_TEXTS.title });
}

const rowOf = async (name: string) =>
  (await screen.findByRole('cell', { name: `u/${name}` })).closest('tr') as HTMLElement;

describe('do-not-contact list', { timeout: 15_000 }, () => {
  it('lists who is on it and why; people who refused cannot be removed', async () => {
    mockEndpoint(doNotContactEndpoints.list, page([REFUSAL, MANUAL], 2));
    const dialog = await open();
    const refused = await rowOf('angry_al');
    expect(within(refused).getByText('Asked not to be contacted')).toBeTruthy();
    expect(within(refused).getByText('Replied: "stop"')).toBeTruthy();
    expect(within(refused).getByRole('button', { name: 'Remove u/angry_al' }).hasAttribute('disabled')).toBe(
      true,
    );
    const manual = await rowOf('by_hand');
    expect(within(manual).getByText('Added by hand')).toBeTruthy();
    expect(within(manual).getByRole('button', { name: 'Remove u/by_hand' }).hasAttribute('disabled')).toBe(
      false,
    );
    expect(within(dialog).getByText('On the list (2)')).toBeTruthy();
  });

  it('adds names as typed, and refuses what is not a name before sending', async () => {
    mockEndpoint(doNotContactEndpoints.list, page([]));
    const add = mockEndpoint(doNotContactEndpoints.add, ({ body }) => ({
      added: body.usernames.slice(1),
      already_listed: body.usernames.slice(0, 1),
    }));
    const dialog = await open();
    const names = within(dialog).getByRole('textbox', { name: /Reddit user names/ });
    await user.type(names, 'u/ok_name, not a name!');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Nothing was added: correct or remove what is not a Reddit user name (a, name!), then Add again.',
    );
    expect(add.calls).toHaveLength(0);

    await user.clear(names);
    await user.type(names, 'u/first_fay\n/u/second_sam third_tim');
    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), 'old customers');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(add.calls).toHaveLength(1));
    expect(add.calls[0]!.rawBody).toEqual({
      usernames: ['first_fay', 'second_sam', 'third_tim'],
      note: 'old customers',
    });
    expect(await screen.findByText('2 added to the do-not-contact list, 1 already on it')).toBeTruthy();
    expect((names as HTMLTextAreaElement).value).toBe('');
  });

  it('removes an entry, and shows why the server keeps one', async () => {
    const list = mockEndpoint(
      doNotContactEndpoints.list,
      page([MANUAL, entry({ username: 'raced_rey' })], 2),
    );
    const remove = mockEndpoint(doNotContactEndpoints.remove, ({ params }) =>
      params.username === 'raced_rey'
        ? errorReply(
            409,
            'u/raced_rey asked not to be contacted again, so they stay on the do-not-contact list.',
            'permanent_suppression',
          )
        : undefined,
    );
    await open();
    await user.click(within(await rowOf('by_hand')).getByRole('button', { name: 'Remove u/by_hand' }));
    expect(await screen.findByText('u/by_hand removed from the do-not-contact list')).toBeTruthy();
    expect(remove.calls[0]!.params).toEqual({ username: 'by_hand' });
    // Focus stays in the dialog, on the list, not on a button that left with its row.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: /^On the list/ }));
    await waitFor(() => expect(list.calls.length).toBeGreaterThanOrEqual(2));

    await user.click(within(await rowOf('raced_rey')).getByRole('button', { name: 'Remove u/raced_rey' }));
    expect(
      await screen.findByText(
        `${DNC_TEXTS.removeFailed}: u/raced_rey asked not to be contacted again, so they stay on the do-not-contact list.`,
      ),
    ).toBeTruthy();
  });

  it('imports a CSV file and reports what was added and which lines were not names', async () => {
    mockEndpoint(doNotContactEndpoints.list, page([]));
    const importer = mockEndpoint(doNotContactEndpoints.import, {
      added: 2,
      already_listed: 1,
      invalid_count: 1,
      invalid: [{ line: 4, value: 'not a name', reason: 'Not a Reddit user name' }],
    });
    const dialog = await open();
    const input = dialog.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    const csv = 'username\nfirst_fay\n/u/known_kim\nnot a name\n';
    await user.upload(input, new File([csv], 'people.csv', { type: 'text/csv' }));
    const result = await screen.findByRole('status', { name: 'Import result' });
    expect(result.textContent).toContain('Import done: 2 added, 1 already listed, 1 invalid line.');
    expect(result.textContent).toContain('Line 4: “not a name” — Not a Reddit user name');
    expect(importer.calls[0]!.rawBody).toEqual({ csv });
  });

  it('searches the list', async () => {
    const list = mockEndpoint(doNotContactEndpoints.list, ({ query }) =>
      query.search ? page([MANUAL]) : page([REFUSAL, MANUAL]),
    );
    const dialog = await open();
    await rowOf('angry_al');
    await user.type(within(dialog).getByRole('textbox', { name: 'Search the list' }), 'hand');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'u/angry_al' })).toBeNull());
    expect(list.calls.at(-1)!.query).toMatchObject({ search: 'hand', offset: 0 });
  });

  it('only shows the list to a read-only account', async () => {
    mockEndpoint(doNotContactEndpoints.list, page([MANUAL]));
    const dialog = await open(true);
    expect(
      within(await rowOf('by_hand'))
        .getByRole('button', { name: 'Remove u/by_hand' })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(dialog).queryByRole('button', { name: 'Add' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Import CSV' })).toBeNull();
  });

  it('tells step 4 when it closes, so the leads leave out whoever was put on the list', async () => {
    mockEndpoint(doNotContactEndpoints.list, page([MANUAL]));
    let closed = 0;
    await open(false, () => closed++);
    expect(closed).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: DNC_TEXTS.title })).toBeNull());
    expect(closed).toBe(1);
  });
});

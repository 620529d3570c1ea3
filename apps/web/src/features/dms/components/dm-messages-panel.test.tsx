import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DM_GENERATION_RUNNING,
  DM_TEXTS,
  dmsEndpoints,
  RUN_POLL_INTERVAL_MS,
  type TDmGenerationStatus,
  type TDmMessage,
} from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import {
  advance,
  buildDm,
  dmGenerationStatus,
  dmPage,
  page,
  PROJECT_ID,
  renderScreen,
  withoutAiSubscription,
} from '../../../test/discovery.test-support';
import { localPrefs } from '../../../lib/local-prefs';
import { NO_MATCHING_DMS, otherPagesEditsText, SAVE_BEFORE_REGENERATING } from '../dm-texts';
import { DmMessagesPanel } from './dm-messages-panel';

const user = userEvent.setup({ delay: null });

/** The list answers whatever `dms` holds when it is asked. */
function mockList(dms: TDmMessage[]) {
  const state = { dms };
  const list = mockEndpoint(dmsEndpoints.list, () => dmPage(state.dms));
  mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
  return { state, list };
}

function renderPanel(
  props: {
    onSend?: (dm: TDmMessage) => void;
    readOnly?: boolean;
    onGenerated?: () => void;
    onWritten?: () => void;
    aiBlocked?: boolean;
  } = {},
) {
  const panel = (
    <DmMessagesPanel
      projectId={PROJECT_ID}
      readOnly={props.readOnly ?? false}
      onSend={props.onSend}
      onGenerated={props.onGenerated}
      onWritten={props.onWritten}
    />
  );
  return renderScreen(props.aiBlocked ? withoutAiSubscription(panel) : panel);
}

const row = (name: string) => screen.findByRole('article', { name: `DM to u/${name}` });
const editor = (item: HTMLElement) => within(item).getByRole('textbox') as HTMLTextAreaElement;

/** Delete, then the dialog's Delete: a DM goes only once confirmed. */
async function confirmDelete(item: HTMLElement) {
  await user.click(within(item).getByRole('button', { name: 'Delete' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete DM message' });
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
}

async function retype(item: HTMLElement, text: string) {
  const box = editor(item);
  await user.clear(box);
  if (text) {
    await user.click(box);
    await user.paste(text);
  }
}

describe('Step 4 DM messages', { timeout: 15_000 }, () => {
  it('finds DMs by recipient and status on the server, from page 1 each time the search or status changes', async () => {
    const all = Array.from({ length: 25 }, (_, i) =>
      buildDm({
        recipient_username: i % 5 === 3 ? `Anna_${i}` : `person_${i}`,
        state: i % 2 === 0 ? 'sent' : 'approved',
      }),
    );
    const list = mockEndpoint(dmsEndpoints.list, ({ query }) => {
      const matches = all.filter(
        (dm) =>
          (!query.search || dm.recipient_username.toLowerCase().includes(query.search.toLowerCase())) &&
          (!query.state || dm.state === query.state),
      );
      const shown = matches.slice(query.offset, query.offset + query.limit);
      return { ...page(shown, matches.length, query.limit, query.offset), ready_to_send: 0 };
    });
    mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
    renderPanel();
    await row('person_0');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await row('person_20');
    expect(list.calls.at(-1)!.query).toMatchObject({ offset: 20 });

    const before = list.calls.length;
    await user.type(screen.getByRole('textbox', { name: 'Search by recipient' }), ' ANN ');
    await waitFor(() => expect(list.calls.at(-1)!.query).toMatchObject({ search: 'ANN', offset: 0 }));
    await row('Anna_3');
    // Typed key by key, it is read once typing pauses.
    expect(list.calls.slice(before).map((c) => c.query.search)).toEqual(['ANN']);
    expect(list.calls.at(-1)!.query).not.toHaveProperty('state');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(
      ['Anna_3', 'Anna_8', 'Anna_13', 'Anna_18', 'Anna_23'].map((n) => `DM to u/${n}`),
    );
    expect(screen.getByRole('heading', { name: 'DM messages (5)' })).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Generated / Saved');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(list.calls.at(-1)!.query).toMatchObject({ search: 'ANN', state: 'approved', offset: 0 });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Expired');
    expect(await screen.findByText(NO_MATCHING_DMS)).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'All statuses');
    await user.clear(screen.getByRole('textbox', { name: 'Search by recipient' }));
    await row('person_0');
    expect(list.calls.at(-1)!.query).toEqual({ project_id: PROJECT_ID, limit: 20, offset: 0 });
  });

  it('lists DMs with their source, post title and keywords, as the server orders them', async () => {
    mockList([
      buildDm({ recipient_username: 'newest', source_type: 'comment', post_title: 'Invoicing thread' }),
      buildDm({ recipient_username: 'older', matched_keywords: ['bookkeeping app', 'invoices'] }),
    ]);
    renderPanel();
    const newest = await row('newest');
    expect(within(newest).getByText('Comment')).toBeTruthy();
    expect(within(newest).getByText('On: Invoicing thread')).toBeTruthy();
    const older = await row('older');
    expect(within(older).getByText('Post')).toBeTruthy();
    expect(within(older).getByText('Any bookkeeping app for freelancers?')).toBeTruthy();
    expect(
      within(within(older).getByLabelText('Matched keywords'))
        .getAllByText(/./)
        .map((b) => b.textContent),
    ).toEqual(['bookkeeping app', 'invoices']);
    const articles = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
    expect(articles).toEqual(['DM to u/newest', 'DM to u/older']);
    expect(screen.getByRole('heading', { name: 'DM messages (2)' })).toBeTruthy();
  });

  it('counts characters out of 400 and turns the counter red from 380', async () => {
    mockList([buildDm({ recipient_username: 'counted', message_content: 'Hello there' })]);
    renderPanel();
    const item = await row('counted');
    const counter = within(item).getByLabelText('Characters used');
    expect(counter.textContent).toBe('11/400');
    expect(counter.style.color).not.toContain('red');

    await retype(item, 'x'.repeat(379));
    expect(counter.textContent).toBe('379/400');
    expect(counter.style.color).not.toContain('red');
    await user.type(editor(item), 'y');
    expect(counter.textContent).toBe('380/400');
    expect(counter.style.color).toContain('red');

    await user.type(editor(item), 'z'.repeat(21));
    expect(counter.textContent).toBe('401/400');
    expect(within(item).getByText('A DM is at most 400 characters')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });

  it('counts an emoji as one character, as its reader does', async () => {
    mockList([buildDm({ recipient_username: 'smiley', message_content: `${'x'.repeat(398)}🙂🚀` })]);
    renderPanel();
    const item = await row('smiley');
    expect(within(item).getByLabelText('Characters used').textContent).toBe('400/400');
    await user.type(editor(item), '!');
    expect(within(item).getByText('Unsaved')).toBeTruthy();
    expect(within(item).getByText('A DM is at most 400 characters')).toBeTruthy();
  });

  it('marks an edit Unsaved, and clears the mark when the text is back to the saved one', async () => {
    mockList([buildDm({ recipient_username: 'marked', message_content: 'Saved text' })]);
    renderPanel();
    const item = await row('marked');
    expect(within(item).queryByText('Unsaved')).toBeNull();
    expect(within(item).getByText('Generated')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);

    await user.type(editor(item), '!');
    expect(within(item).getByText('Unsaved')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);

    await user.type(editor(item), '{Backspace}');
    expect(editor(item).value).toBe('Saved text');
    expect(within(item).queryByText('Unsaved')).toBeNull();

    await user.type(editor(item), ' and more');
    await user.click(within(item).getByRole('button', { name: 'Undo changes' }));
    expect(editor(item).value).toBe('Saved text');
    expect(within(item).queryByText('Unsaved')).toBeNull();
  });

  it('keeps an unsaved edit when the panel goes and comes back (another project or page, a reload)', async () => {
    mockList([buildDm({ recipient_username: 'leaver', message_content: 'Saved text' })]);
    const first = renderPanel();
    await user.type(editor(await row('leaver')), '!');
    first.unmount();

    const second = renderPanel();
    const item = await row('leaver');
    expect(editor(item).value).toBe('Saved text!');
    expect(within(item).getByText('Unsaved')).toBeTruthy();
    await user.click(within(item).getByRole('button', { name: 'Undo changes' }));
    second.unmount();

    renderPanel();
    expect(editor(await row('leaver')).value).toBe('Saved text');
    expect(localPrefs.getDmEdits(PROJECT_ID)).toEqual({});
  });

  it('drops a kept edit of a DM sent meanwhile, and offers to undo those of DMs on other pages', async () => {
    const sent = buildDm({ recipient_username: 'gone', state: 'sent', message_content: 'Sent text' });
    mockList([sent]);
    localPrefs.setDmEdits(PROJECT_ID, { [sent.id]: 'Sent text, edited', 'other-page-dm': 'Elsewhere' });
    renderPanel();
    expect(editor(await row('gone')).value).toBe('Sent text');
    expect(await screen.findByText(otherPagesEditsText(1))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Undo those edits' }));
    expect(screen.queryByText(otherPagesEditsText(1))).toBeNull();
    expect(localPrefs.getDmEdits(PROJECT_ID)).toEqual({});
  });

  it('saves an edit with update-dm-messages; the DM then shows as saved', async () => {
    const dm = buildDm({ recipient_username: 'saver', message_content: 'Generated text' });
    const { state } = mockList([dm]);
    const update = mockEndpoint(dmsEndpoints.update, ({ body }) => {
      state.dms = [{ ...dm, message_content: body.messages[0]!.message_content, edited: true }];
      return { messages: state.dms };
    });
    renderPanel();
    const item = await row('saver');
    await retype(item, 'My own words, thanks');
    await user.click(within(item).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(item).queryByText('Unsaved')).toBeNull());
    expect(update.calls[0]!.rawBody).toEqual({
      messages: [{ id: dm.id, message_content: 'My own words, thanks' }],
    });
    expect(await within(item).findByText('Saved')).toBeTruthy();
    expect(editor(item).value).toBe('My own words, thanks');
  });

  it('says Failed to save your edits when a save fails, and keeps the edit', async () => {
    mockList([buildDm({ recipient_username: 'unlucky', message_content: 'Generated' })]);
    mockEndpoint(dmsEndpoints.update, errorReply(500, 'database down', 'internal'));
    renderPanel();
    const item = await row('unlucky');
    await retype(item, 'Edited');
    await user.click(within(item).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DM_TEXTS.saveEditFailed)).toBeTruthy();
    expect(editor(item).value).toBe('Edited');
    expect(within(item).getByText('Unsaved')).toBeTruthy();
  });

  it.each(['Save', 'Regenerate', 'Delete'])(
    'takes away a DM deleted in another tab when its %s answers 404',
    async (action) => {
      const dm = buildDm({ recipient_username: 'deleted_elsewhere', message_content: 'Generated' });
      const { state, list } = mockList([dm]);
      const gone = () => {
        state.dms = [];
        return errorReply(404, 'DM not found', 'not_found');
      };
      mockEndpoint(dmsEndpoints.update, gone);
      mockEndpoint(dmsEndpoints.regenerate, gone);
      mockEndpoint(dmsEndpoints.delete, gone);
      renderPanel();
      const item = await row('deleted_elsewhere');
      // Regenerate waits for an edit to be saved or undone.
      if (action !== 'Regenerate') await retype(item, 'Edited');
      const reads = list.calls.length;
      if (action === 'Delete') await confirmDelete(item);
      else await user.click(within(item).getByRole('button', { name: action }));
      await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
      expect(list.calls.length).toBeGreaterThan(reads);
      expect(screen.queryByText(otherPagesEditsText(1))).toBeNull();
      expect(localPrefs.getDmEdits(PROJECT_ID)).toEqual({});
    },
  );

  it('saves every edit at once, or says Failed to save edited messages', async () => {
    const a = buildDm({ recipient_username: 'first' });
    const b = buildDm({ recipient_username: 'second' });
    mockList([a, b]);
    const update = mockEndpoint(dmsEndpoints.update, errorReply(503, 'busy', 'unavailable'));
    renderPanel();
    await retype(await row('first'), 'One');
    await retype(await row('second'), 'Two');
    await user.click(screen.getByRole('button', { name: 'Save All Edits (2)' }));
    expect(await screen.findByText(DM_TEXTS.saveEditsFailed)).toBeTruthy();
    expect(update.calls[0]!.rawBody).toEqual({
      messages: [
        { id: a.id, message_content: 'One' },
        { id: b.id, message_content: 'Two' },
      ],
    });
  });

  it('regenerates a DM and shows the new text, once an unsaved edit is saved or undone', async () => {
    const dm = buildDm({ recipient_username: 'regen', message_content: 'First draft' });
    const { state } = mockList([dm]);
    const regenerate = mockEndpoint(dmsEndpoints.regenerate, ({ params }) => {
      const next = { ...dm, message_content: 'Second draft', original_content: 'Second draft', variant: 1 };
      state.dms = [next];
      expect(params.dmId).toBe(dm.id);
      return next;
    });
    renderPanel();
    const item = await row('regen');
    await retype(item, 'Half-edited');
    // The new text would replace the edit: Regenerate waits, and says why.
    const button = within(item).getByRole('button', { name: 'Regenerate' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.hover(button.parentElement!);
    expect(await screen.findByText(SAVE_BEFORE_REGENERATING)).toBeTruthy();
    await user.click(within(item).getByRole('button', { name: 'Undo changes' }));
    await user.click(within(item).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(editor(item).value).toBe('Second draft'));
    expect(regenerate.calls).toHaveLength(1);
    expect(within(item).queryByText('Unsaved')).toBeNull();
  });

  it('asks before a saved edit is replaced by a new draft, and keeps it on Cancel', async () => {
    const dm = buildDm({
      recipient_username: 'edited_one',
      message_content: 'My own words',
      edited: true,
      edited_at: '2030-01-01T00:00:00Z',
    });
    const { state } = mockList([dm]);
    const regenerate = mockEndpoint(dmsEndpoints.regenerate, () => {
      const next = { ...dm, message_content: 'Second draft', edited: false, edited_at: null };
      state.dms = [next];
      return next;
    });
    renderPanel();
    const item = await row('edited_one');
    await user.click(within(item).getByRole('button', { name: 'Regenerate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Regenerate DM message' });
    expect(
      within(dialog).getByText(
        'Replace your edited DM to u/edited_one with a new draft? Your edit cannot be brought back.',
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(regenerate.calls).toHaveLength(0);
    expect(editor(item).value).toBe('My own words');

    await user.click(within(item).getByRole('button', { name: 'Regenerate' }));
    const again = await screen.findByRole('dialog', { name: 'Regenerate DM message' });
    await user.click(within(again).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(editor(item).value).toBe('Second draft'));
    expect(regenerate.calls).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it.each([
    [errorReply(404, DM_TEXTS.commentNotFound, 'not_found'), DM_TEXTS.commentNotFound],
    [errorReply(502, DM_TEXTS.noNewContent, 'no_new_content'), DM_TEXTS.noNewContent],
    [errorReply(500, 'boom', 'internal'), DM_TEXTS.regenerateFailed],
  ])('a failed regeneration shows the spec text (%#)', async (answer, text) => {
    mockList([buildDm({ recipient_username: 'regen_fail' })]);
    mockEndpoint(dmsEndpoints.regenerate, answer);
    renderPanel();
    const item = await row('regen_fail');
    await user.click(within(item).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('asks before it deletes a DM, keeps it on Cancel, and says when it is deleted', async () => {
    const dm = buildDm({ recipient_username: 'doomed' });
    const { state } = mockList([dm]);
    const remove = mockEndpoint(dmsEndpoints.delete, () => {
      state.dms = [];
      return undefined;
    });
    renderPanel();
    const item = await row('doomed');
    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete DM message' });
    expect(
      within(dialog).getByText('Delete the DM to u/doomed? Its text cannot be brought back.'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(remove.calls).toHaveLength(0);
    expect(await row('doomed')).toBeTruthy();

    // A double click on the answer deletes once.
    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: 'Delete DM message' });
    await user.dblClick(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('✅ DM message deleted successfully')).toBeTruthy();
    expect(remove.calls).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
  });

  it('says ❌ Error deleting DM message when a delete fails', async () => {
    mockList([buildDm({ recipient_username: 'stays' })]);
    mockEndpoint(dmsEndpoints.delete, errorReply(409, 'This DM has been sent', 'dm_sent'));
    renderPanel();
    await confirmDelete(await row('stays'));
    expect(await screen.findByText('❌ Error deleting DM message')).toBeTruthy();
    expect(screen.getByText('This DM has been sent')).toBeTruthy();
  });

  it("tells a refused delete's reason in spec section 8's words, not the server's", async () => {
    mockList([buildDm({ recipient_username: 'kept' })]);
    mockEndpoint(
      dmsEndpoints.delete,
      errorReply(403, 'READONLY access: your account cannot modify data.', 'read_only'),
    );
    renderPanel();
    await confirmDelete(await row('kept'));
    expect(await screen.findByText('❌ Error deleting DM message')).toBeTruthy();
    expect(
      screen.getByText('Your account has read-only access. Contact your administrator to modify data.'),
    ).toBeTruthy();
  });

  it('shows a sent DM read-only, with when it was sent', async () => {
    mockList([
      buildDm({
        recipient_username: 'reached',
        state: 'sent',
        sent: true,
        sent_at: '2030-01-02T10:00:00Z',
      }),
    ]);
    renderPanel();
    const item = await row('reached');
    expect(within(item).getByText('Sent')).toBeTruthy();
    expect(editor(item).readOnly).toBe(true);
    for (const name of ['Save', 'Regenerate', 'Delete', 'Send']) {
      expect(within(item).queryByRole('button', { name })).toBeNull();
    }
    expect(within(item).getByText(/^Sent .+/)).toBeTruthy();
  });

  it('says why a DM taken back from the queue was not sent, and leaves it to send again', async () => {
    mockList([
      buildDm({
        recipient_username: 'unqueued',
        state: 'approved',
        outcome_code: 'subscription_required',
        outcome_reason:
          "Not sent: the project owner's subscription ended before it went. Send All queues it again.",
      }),
      buildDm({ recipient_username: 'fresh', state: 'approved' }),
    ]);
    renderPanel({ onSend: () => {} });
    const item = await row('unqueued');
    expect(
      within(item).getByText(
        "Not sent: the project owner's subscription ended before it went. Send All queues it again.",
      ),
    ).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(within(await row('fresh')).queryByText(/^Not sent/)).toBeNull();
  });

  it('sends through onSend; without it Send stays disabled and says why', async () => {
    const dm = buildDm({ recipient_username: 'sendable' });
    mockList([dm]);
    const onSend = vi.fn();
    const first = renderPanel({ onSend });
    const item = await row('sendable');
    await user.click(within(item).getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith(dm);
    // An unsaved edit is saved first.
    await user.type(editor(item), '!');
    expect(within(item).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    first.unmount();

    mockList([dm]);
    renderPanel();
    const bare = await row('sendable');
    const send = within(bare).getByRole('button', { name: 'Send' });
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.hover(send.parentElement!);
    expect(await screen.findByText('Sending is not available yet')).toBeTruthy();
  });

  it('says a DM to someone on the do-not-contact list cannot be sent, and disables its Send', async () => {
    const listed =
      "u/gone_user is on this workspace's do-not-contact list (Reddit said the account doesn't exist)";
    const byHand = "u/by_hand is on this workspace's do-not-contact list (added by hand)";
    mockList([
      buildDm({
        recipient_username: 'gone_user',
        state: 'failed',
        outcome_code: 'USER_DOESNT_EXIST',
        outcome_reason: "Reddit says that user doesn't exist",
        do_not_contact: { reason: 'user_doesnt_exist', detail: listed },
      }),
      buildDm({ recipient_username: 'by_hand', do_not_contact: { reason: 'manual', detail: byHand } }),
      // Failed by Send All for being on the list: its outcome says so once.
      buildDm({
        recipient_username: 'already_said',
        state: 'failed',
        outcome_code: 'suppressed',
        outcome_reason: "u/already_said is on this workspace's do-not-contact list (imported)",
        do_not_contact: {
          reason: 'import',
          detail: "u/already_said is on this workspace's do-not-contact list (imported)",
        },
      }),
      buildDm({ recipient_username: 'reachable' }),
    ]);
    const onSend = vi.fn();
    renderPanel({ onSend });
    const gone = await row('gone_user');
    expect(within(gone).getByText(listed)).toBeTruthy();
    const send = within(gone).getByRole('button', { name: 'Send' });
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.hover(send.parentElement!);
    expect(await screen.findByRole('tooltip', { name: listed })).toBeTruthy();

    const manual = await row('by_hand');
    expect(within(manual).getByText(byHand)).toBeTruthy();
    expect(within(manual).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    // Still editable and deletable.
    expect(within(manual).getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(false);

    const said = await row('already_said');
    expect(within(said).getAllByText(/do-not-contact list \(imported\)/)).toHaveLength(1);
    expect(within(said).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);

    const open = await row('reachable');
    expect(within(open).queryByText(/do-not-contact/)).toBeNull();
    await user.click(within(open).getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('says a DM to someone who already answered the workspace cannot be sent, and disables its Send', async () => {
    const answered = 'u/talked_before already answered a DM from this workspace';
    mockList([
      buildDm({ recipient_username: 'talked_before', already_answered: { detail: answered } }),
      // On the list too: the list's reason is the one a Send would be refused with.
      buildDm({
        recipient_username: 'both',
        do_not_contact: {
          reason: 'refusal',
          detail: "u/both is on this workspace's do-not-contact list (asked not to be contacted)",
        },
        already_answered: { detail: 'u/both already answered a DM from this workspace' },
      }),
    ]);
    const onSend = vi.fn();
    renderPanel({ onSend });
    const dm = await row('talked_before');
    expect(within(dm).getByText(answered)).toBeTruthy();
    const send = within(dm).getByRole('button', { name: 'Send' });
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.hover(send.parentElement!);
    expect(await screen.findByRole('tooltip', { name: answered })).toBeTruthy();
    expect(within(dm).getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(false);

    const both = await row('both');
    expect(within(both).getByText(/do-not-contact list \(asked not to be contacted\)/)).toBeTruthy();
    expect(within(both).queryByText(/already answered/)).toBeNull();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('says a failed DM whose lead is too old cannot be sent again, and disables its Send', async () => {
    const tooOld = 'This DM expired with its lead and can no longer be sent';
    mockList([
      buildDm({
        recipient_username: 'long_ago',
        state: 'failed',
        outcome_code: 'compose_refused',
        outcome_reason: 'Reddit refused the DM (400)',
        lead_expired: { detail: tooOld },
      }),
      // Expired already: its outcome says so, and its Send is off for the same reason.
      buildDm({ recipient_username: 'expired_one', state: 'expired', lead_expired: { detail: tooOld } }),
      buildDm({
        recipient_username: 'recent',
        state: 'failed',
        outcome_reason: 'Reddit refused the DM (400)',
      }),
    ]);
    const onSend = vi.fn();
    renderPanel({ onSend });
    const dm = await row('long_ago');
    expect(within(dm).getByText('Not sent: Reddit refused the DM (400)')).toBeTruthy();
    expect(within(dm).getByText(tooOld)).toBeTruthy();
    const send = within(dm).getByRole('button', { name: 'Send' });
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.hover(send.parentElement!);
    expect(await screen.findByRole('tooltip', { name: tooOld })).toBeTruthy();
    expect(within(dm).getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(false);

    const expired = await row('expired_one');
    expect(within(expired).queryByText(tooOld)).toBeNull();
    expect(within(expired).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);

    // A failed DM about a recent lead is sent again.
    await user.click(within(await row('recent')).getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend.mock.calls[0]![0]).toMatchObject({ recipient_username: 'recent' });
  });

  it('disables every change for a read-only account', async () => {
    mockList([buildDm({ recipient_username: 'viewer' })]);
    renderPanel({ readOnly: true });
    const item = await row('viewer');
    expect(editor(item).readOnly).toBe(true);
    for (const name of ['Save', 'Regenerate', 'Delete', 'Send']) {
      expect(within(item).getByRole('button', { name }).hasAttribute('disabled')).toBe(true);
    }
    expect(screen.getByRole('button', { name: 'Generate All DMs' }).hasAttribute('disabled')).toBe(true);
  });

  it('keeps Generate All DMs and Regenerate from a customer without a subscription; the rest works', async () => {
    mockList([buildDm({ recipient_username: 'lapsed' })]);
    renderPanel({ aiBlocked: true, onSend: vi.fn() });
    const item = await row('lapsed');
    expect(within(item).getByRole('button', { name: 'Regenerate' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Generate All DMs' }).hasAttribute('disabled')).toBe(true);
    for (const name of ['Delete', 'Send']) {
      expect(within(item).getByRole('button', { name }).hasAttribute('disabled')).toBe(false);
    }
    await user.hover(within(item).getByRole('button', { name: 'Regenerate' }).parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: 'Subscription required for AI features' }),
    ).toBeTruthy();
  });
});

describe('Generate All DMs', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const generating = (done: number, written: number, total = 10) =>
    dmGenerationStatus({
      status: 'generating',
      total,
      duration_seconds: done,
      progress: { phase: 'writing DMs', items_read: done, leads_found: written },
    });

  /** generate-all answers started, and from then on the status calls answer `after` in turn. */
  function startAnswers(after: TDmGenerationStatus[]) {
    return mockEndpoint(dmsEndpoints.generateAll, () => {
      const queue = [...after];
      mockEndpoint(dmsEndpoints.generateAllStatus, () => (queue.length > 1 ? queue.shift()! : queue[0]!));
      return { data: { status: 'started' as const } };
    });
  }

  const progress = () => screen.queryByRole('status', { name: 'Generating DMs' });

  it('starts one run for a double click, with no notice that a run is going', async () => {
    mockList([]);
    const start = startAnswers([generating(1, 0)]);
    renderPanel();
    await advance();
    const button = screen.getByRole('button', { name: 'Generate All DMs' });
    act(() => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    await advance();
    expect(start.calls).toHaveLength(1);
    expect(screen.queryByText(DM_GENERATION_RUNNING)).toBeNull();
    expect(progress()).not.toBeNull();
  });

  it('starts the run, shows its progress while polling, reloads the list and reports what it did when done', async () => {
    const { state, list } = mockList([]);
    const start = startAnswers([
      generating(3, 2),
      generating(7, 5),
      dmGenerationStatus({
        status: 'completed',
        total: 10,
        progress: { phase: 'writing DMs', items_read: 10, leads_found: 8 },
        result: {
          generated: 8,
          failed: 0,
          skipped: {
            already_has_dm: 0,
            suppressed: 1,
            already_contacted: 1,
            own_account: 0,
            author_deleted: 0,
            lead_too_old: 0,
          },
        },
      }),
    ]);
    const onGenerated = vi.fn();
    const onWritten = vi.fn();
    renderPanel({ onGenerated, onWritten });
    await advance();
    expect(screen.getByText(/No DM messages yet/)).toBeTruthy();

    state.dms = [buildDm({ recipient_username: 'early_bird' })];
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Generate All DMs' })));
    await advance();
    expect(start.calls[0]!.rawBody).toEqual({ project_id: PROJECT_ID });
    expect(progress()!.textContent).toContain('Leads done: 3 of 10 · DMs written: 2');
    expect(within(progress()!).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');
    expect(screen.getByRole('button', { name: 'Generate All DMs' }).hasAttribute('disabled')).toBe(true);
    // DMs written so far are listed already.
    expect(screen.getByRole('article', { name: 'DM to u/early_bird' })).toBeTruthy();

    await advance(RUN_POLL_INTERVAL_MS);
    expect(progress()!.textContent).toContain('Leads done: 7 of 10 · DMs written: 5');
    expect(onGenerated).not.toHaveBeenCalled();
    // The campaign's counts follow the DMs written (2, then 5).
    expect(onWritten).toHaveBeenCalledTimes(2);

    const listed = list.calls.length;
    await advance(RUN_POLL_INTERVAL_MS);
    expect(progress()).toBeNull();
    expect(screen.getByText('8 DMs generated, 2 leads skipped')).toBeTruthy();
    expect(list.calls.length).toBeGreaterThan(listed);
    // And once more when the run is done.
    expect(onGenerated).toHaveBeenCalledTimes(1);
  });

  it('follows a run already going (409), and says a failed start failed', async () => {
    mockList([]);
    mockEndpoint(dmsEndpoints.generateAll, () => {
      mockEndpoint(dmsEndpoints.generateAllStatus, generating(1, 1));
      return errorReply(409, DM_GENERATION_RUNNING, 'dm_generation_running');
    });
    const first = renderPanel();
    await advance();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Generate All DMs' })));
    await advance();
    expect(screen.getByText(DM_GENERATION_RUNNING)).toBeTruthy();
    expect(progress()).toBeTruthy();
    first.unmount();

    mockList([]);
    mockEndpoint(
      dmsEndpoints.generateAll,
      errorReply(400, 'Product information is missing: save step 1 first', 'product_info_missing'),
    );
    renderPanel();
    await advance();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Generate All DMs' })));
    await advance();
    expect(
      screen.getByText('Failed to generate DM messages: Product information is missing: save step 1 first'),
    ).toBeTruthy();
  });

  it('shows a failed run with the spec text', async () => {
    mockList([]);
    startAnswers([generating(1, 0), dmGenerationStatus({ status: 'failed', error: 'The model is down' })]);
    renderPanel();
    await advance();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Generate All DMs' })));
    await advance();
    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.getByText('Failed to generate DM messages: The model is down')).toBeTruthy();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { keywordsEndpoints, type TApproveKeywordsResponse, type TKeyword } from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import {
  buildKeyword,
  keywordList,
  PROJECT_ID,
  renderScreen,
  withoutAiSubscription,
} from '../../../test/discovery.test-support';
import { KeywordsStep } from './keywords-step';

const CRM = buildKeyword({ keyword: 'bookkeeping app', type: 'product', approved: true });
const INVOICES = buildKeyword({ keyword: 'invoice software', type: 'product', approved: false });
const DESIGNERS = buildKeyword({ keyword: 'freelance designers', type: 'icp', approved: false });

function renderStep(props: { readOnly?: boolean; aiBlocked?: boolean } = {}) {
  const callbacks = { onBack: vi.fn(), onSkip: vi.fn(), onApproved: vi.fn() };
  const step = <KeywordsStep projectId={PROJECT_ID} readOnly={props.readOnly ?? false} {...callbacks} />;
  renderScreen(props.aiBlocked ? withoutAiSubscription(step) : step);
  return callbacks;
}

function approvedAnswer(keywords: TKeyword[], generation: TApproveKeywordsResponse['subreddit_generation']) {
  return {
    keywords,
    approved_count: keywords.filter((k) => k.approved).length,
    filters: { negative_keywords: [], excluded_subreddits: [], excluded_authors: [] },
    subreddit_generation: generation,
  } satisfies TApproveKeywordsResponse;
}

const group = (name: string) => screen.getByRole('region', { name });
const tagInput = (name: string) => screen.getByRole('combobox', { name });
/** Pasting adds tags at once (typing into Mantine's combobox inputs in jsdom is slow). */
async function pasteTags(name: string, text: string) {
  await user.click(tagInput(name));
  await user.paste(text);
}
const user = userEvent.setup({ delay: null });

// Typing into Mantine's combobox inputs in jsdom takes seconds on a busy machine.
describe('Step 2 keywords', { timeout: 30_000 }, () => {
  it('lists product and ICP keywords with their approval', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM, INVOICES, DESIGNERS]));
    renderStep();
    const product = await screen.findByRole('region', { name: 'Product Keywords' });
    expect(within(product).getByRole('checkbox', { name: 'bookkeeping app' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(product).getByRole('checkbox', { name: 'invoice software' })).toHaveProperty(
      'checked',
      false,
    );
    expect(within(product).getByText('(1 of 2 selected)')).toBeTruthy();
    expect(within(group('ICP Keywords')).getByRole('checkbox', { name: 'freelance designers' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Keywords' })).toBeTruthy();
  });

  it('Save Keywords & Patterns sends every row with its approval, the filters, and no generation', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM, INVOICES, DESIGNERS]));
    const approve = mockEndpoint(keywordsEndpoints.approve, ({ body }) =>
      approvedAnswer(
        [CRM, INVOICES, DESIGNERS].map((k) => ({
          ...k,
          approved: body.keywords.find((b) => b.id === k.id)?.approved ?? false,
        })),
        'not_requested',
      ),
    );
    const { onApproved } = renderStep();
    await user.click(await screen.findByRole('checkbox', { name: 'freelance designers' }));
    await user.click(screen.getByRole('checkbox', { name: 'bookkeeping app' }));
    await pasteTags('Negative keywords', 'hiring');
    await pasteTags('Excluded subreddits', 'r/jobs');
    await pasteTags('Excluded authors', 'u/AutoModerator');
    await user.click(screen.getByRole('button', { name: 'Save Keywords & Patterns' }));

    expect(await screen.findByText('Keywords and patterns saved')).toBeTruthy();
    expect(approve.calls[0]!.rawBody).toEqual({
      keywords: [
        { id: CRM.id, keyword: 'bookkeeping app', type: 'product', approved: false },
        { id: INVOICES.id, keyword: 'invoice software', type: 'product', approved: false },
        { id: DESIGNERS.id, keyword: 'freelance designers', type: 'icp', approved: true },
      ],
      generate_subreddits: false,
      filters: {
        negative_keywords: ['hiring'],
        excluded_subreddits: ['jobs'],
        excluded_authors: ['AutoModerator'],
      },
    });
    expect(onApproved).not.toHaveBeenCalled();
  });

  it.each(['Save Keywords & Patterns', 'Approve & Continue'])(
    '%s needs at least one selected keyword and sends nothing without one',
    async (button) => {
      mockEndpoint(keywordsEndpoints.list, keywordList([CRM, DESIGNERS]));
      renderStep();
      await screen.findByRole('region', { name: 'Product Keywords' });
      for (const name of ['Product Keywords', 'ICP Keywords']) {
        await user.click(within(group(name)).getByRole('button', { name: 'Clear' }));
      }
      await user.click(screen.getByRole('button', { name: button }));
      expect(await screen.findByText('Please select at least one keyword to save')).toBeTruthy();
      expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);

      await user.click(within(group('ICP Keywords')).getByRole('button', { name: 'Select all' }));
      expect(screen.queryByText('Please select at least one keyword to save')).toBeNull();
    },
  );

  it('checks a keyword the customer adds', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    renderStep();
    const input = await screen.findByLabelText('Add your own keyword');
    await user.type(input, 'x{enter}');
    expect(await screen.findByText('Keywords are at least 2 characters')).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'Bookkeeping App{enter}');
    expect(await screen.findByText('This keyword is already in the list')).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
  });

  it('adds the customer’s own keyword, checked, and sends it without an id', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    const approve = mockEndpoint(keywordsEndpoints.approve, approvedAnswer([CRM], 'started'));
    const { onApproved } = renderStep();
    const input = await screen.findByLabelText('Add your own keyword');
    await user.type(input, 'quarterly taxes');
    await user.click(screen.getByRole('radio', { name: 'ICP' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(within(group('ICP Keywords')).getByRole('checkbox', { name: 'quarterly taxes' })).toHaveProperty(
      'checked',
      true,
    );
    expect((input as HTMLInputElement).value).toBe('');

    // An added keyword can be taken out again before it is saved.
    await user.click(screen.getByRole('radio', { name: 'Product' }));
    await user.type(input, 'tax forms{enter}');
    await user.click(within(group('Product Keywords')).getByRole('button', { name: 'Remove tax forms' }));
    expect(screen.queryByRole('checkbox', { name: 'tax forms' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    await waitFor(() => expect(onApproved).toHaveBeenCalledWith('started'));
    expect(approve.calls[0]!.rawBody).toMatchObject({
      keywords: [
        { id: CRM.id, keyword: 'bookkeeping app', type: 'product', approved: true },
        { keyword: 'quarterly taxes', type: 'icp', approved: true },
      ],
      generate_subreddits: true,
    });
  });

  it('keeps unsaved keywords and exclusions over a switch of step or a reload, until they are saved', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM, INVOICES]));
    const approve = mockEndpoint(keywordsEndpoints.approve, ({ body }) =>
      approvedAnswer(
        body.keywords.map((k, i) => buildKeyword({ ...k, id: k.id ?? `new-${i}` })),
        'not_requested',
      ),
    );
    const first = renderScreen(
      <KeywordsStep
        projectId={PROJECT_ID}
        readOnly={false}
        onBack={vi.fn()}
        onSkip={vi.fn()}
        onApproved={vi.fn()}
      />,
    );
    await user.type(await screen.findByLabelText('Add your own keyword'), 'quarterly taxes{enter}');
    await user.click(screen.getByRole('checkbox', { name: 'invoice software' }));
    await pasteTags('Negative keywords', 'hiring,');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    first.unmount();

    renderStep();
    expect(await screen.findByRole('checkbox', { name: 'quarterly taxes' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'invoice software' })).toHaveProperty('checked', true);
    expect(screen.getByText('hiring')).toBeTruthy();
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Keywords & Patterns' }));
    await waitFor(() => expect(approve.calls).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem(`projectDraft:keywords:${PROJECT_ID}`)).toBeNull());
  });

  it('checks the exclusions before sending', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    renderStep();
    await screen.findByRole('region', { name: 'Product Keywords' });
    await pasteTags('Excluded subreddits', 'not a sub');
    // Said as it is added...
    expect(await screen.findByText('Invalid subreddit name: not a sub')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Keywords & Patterns' }));
    // ...and Save, further down, takes the customer back to it.
    expect(screen.getByText('Invalid subreddit name: not a sub')).toBeTruthy();
    expect(document.activeElement).toBe(tagInput('Excluded subreddits'));
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('shows the saved filters', async () => {
    mockEndpoint(
      keywordsEndpoints.list,
      keywordList([CRM], { negative_keywords: ['hiring'], excluded_authors: ['AutoModerator'] }),
    );
    renderStep();
    await screen.findByRole('region', { name: 'Product Keywords' });
    expect(screen.getByText('hiring')).toBeTruthy();
    expect(screen.getByText('AutoModerator')).toBeTruthy();
  });

  it.each([
    ['Save Keywords & Patterns', 'Error saving keywords and patterns'],
    ['Approve & Continue', 'Error approving keywords'],
  ])('%s failing shows %s with the server message', async (button, title) => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    mockEndpoint(keywordsEndpoints.approve, errorReply(404, 'Keyword not found', 'not_found'));
    const { onApproved } = renderStep();
    await user.click(await screen.findByRole('button', { name: button }));
    const alert = (await screen.findByText(title)).closest('[role="alert"]') as HTMLElement;
    expect(alert.textContent).toContain('Keyword not found');
    expect(onApproved).not.toHaveBeenCalled();
  });

  it('generates keywords when there are none, and lists the new ones', async () => {
    let items: TKeyword[] = [];
    mockEndpoint(keywordsEndpoints.list, () => keywordList(items));
    const generate = mockEndpoint(keywordsEndpoints.generate, () => {
      items = [INVOICES, DESIGNERS];
      return {
        generated: true,
        product_keywords: [INVOICES],
        icp_keywords: [DESIGNERS],
        subreddits_count: 0,
      };
    });
    renderStep();
    expect(await screen.findByText(/No keywords yet/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Generate Keywords' }));
    expect(await screen.findByRole('checkbox', { name: 'invoice software' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Regenerate Keywords' })).toBeTruthy();
    expect(generate.calls).toHaveLength(1);
  });

  it('keeps unsaved choices, added keywords and exclusions over Regenerate Keywords', async () => {
    const CHURN = buildKeyword({ keyword: 'churn analytics', type: 'product', approved: false });
    let items: TKeyword[] = [CRM, INVOICES];
    mockEndpoint(keywordsEndpoints.list, () => keywordList(items));
    mockEndpoint(keywordsEndpoints.generate, () => {
      // The server keeps the approved keywords and replaces the others.
      items = [CRM, CHURN];
      return { generated: true, product_keywords: [CHURN], icp_keywords: [], subreddits_count: 0 };
    });
    renderStep();
    await user.click(await screen.findByRole('checkbox', { name: 'bookkeeping app' }));
    await user.type(screen.getByLabelText('Add your own keyword'), 'expense tracker');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await pasteTags('Negative keywords', 'hiring,');
    await user.click(screen.getByRole('button', { name: 'Regenerate Keywords' }));

    expect(await screen.findByRole('checkbox', { name: 'churn analytics' })).toHaveProperty('checked', false);
    expect(screen.getByRole('checkbox', { name: 'bookkeeping app' })).toHaveProperty('checked', false);
    expect(screen.getByRole('checkbox', { name: 'expense tracker' })).toHaveProperty('checked', true);
    expect(screen.queryByRole('checkbox', { name: 'invoice software' })).toBeNull();
    expect(screen.getByText('hiring')).toBeTruthy();
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('shows Error generating keywords with the subscription text on a 403', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    mockEndpoint(keywordsEndpoints.generate, errorReply(403, 'Subscription required', 'forbidden'));
    renderStep();
    await user.click(await screen.findByRole('button', { name: 'Regenerate Keywords' }));
    const alert = (await screen.findByText('Error generating keywords')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(alert.textContent).toContain(
      'This feature requires an active subscription. Please upgrade to use AI-powered content generation.',
    );
  });

  it('Back and Skip to Subreddits move without saving', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    const { onBack, onSkip } = renderStep();
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Skip to Subreddits' }));
    expect(onBack).toHaveBeenCalledTimes(1);
    expect(onSkip).toHaveBeenCalledTimes(1);
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('lets read-only users look but not change anything', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    renderStep({ readOnly: true });
    expect(await screen.findByRole('checkbox', { name: 'bookkeeping app' })).toHaveProperty('disabled', true);
    for (const name of ['Save Keywords & Patterns', 'Approve & Continue', 'Regenerate Keywords', 'Add']) {
      expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(true);
    }
    expect(screen.getByRole('button', { name: 'Skip to Subreddits' }).hasAttribute('disabled')).toBe(false);
  });

  it('keeps Regenerate Keywords from a customer without a subscription, saying why', async () => {
    mockEndpoint(keywordsEndpoints.list, keywordList([CRM]));
    renderStep({ aiBlocked: true });
    const generate = await screen.findByRole('button', { name: 'Regenerate Keywords' });
    expect(generate.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Save Keywords & Patterns' }).hasAttribute('disabled')).toBe(
      false,
    );
    await user.hover(generate.parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: 'Subscription required for AI features' }),
    ).toBeTruthy();
  });
});

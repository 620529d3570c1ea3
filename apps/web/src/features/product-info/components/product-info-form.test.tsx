import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppProviders } from '../../../app/app-providers';
import {
  PRODUCT_INFO_CHANGED,
  PRODUCT_INFO_CHANGED_DETAIL,
  productInfoEndpoints,
  type TProductInfo,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { testQueryClient } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { ProductInfoForm, validateProductInfo } from './product-info-form';

const PROJECT_ID = '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d';
const EMPTY: TProductInfo = {
  project_id: PROJECT_ID,
  product_description: '',
  ideal_client_profile: '',
  call_to_action: '',
  writing_style: '',
  updated_at: null,
};
const VALID = {
  product_description: 'A scheduling tool for small dental clinics that cuts no-shows in half.',
  ideal_client_profile: 'Owners of dental clinics with 1 to 5 chairs.',
  call_to_action: 'Book a free 15-minute demo.',
  writing_style: 'Friendly and short.',
};

function renderForm(props: { readOnly?: boolean; onKeywordsRegenerated?: () => void } = {}) {
  setToken(makeToken());
  return render(
    <AppProviders queryClient={testQueryClient()}>
      <ProductInfoForm projectId={PROJECT_ID} {...props} />
    </AppProviders>,
  );
}

function counterOf(label: string) {
  const field = screen.getByLabelText(label, { exact: false });
  const block = field.closest('.mantine-Stack-root') as HTMLElement;
  return block.querySelector('[data-out-of-range]') as HTMLElement;
}

describe('Step 1 product information form', () => {
  it('shows live counters, red below the minimum', async () => {
    mockEndpoint(productInfoEndpoints.get, EMPTY);
    renderForm();
    const description = await screen.findByLabelText('Product Description', { exact: false });
    expect(counterOf('Product Description').textContent).toBe('0/1000');
    expect(counterOf('Product Description').dataset.outOfRange).toBe('true');

    fireEvent.change(description, { target: { value: 'x'.repeat(49) } });
    expect(counterOf('Product Description').textContent).toBe('49/1000');
    expect(counterOf('Product Description').dataset.outOfRange).toBe('true');
    fireEvent.change(description, { target: { value: 'x'.repeat(50) } });
    expect(counterOf('Product Description').dataset.outOfRange).toBe('false');

    const icp = screen.getByLabelText('Ideal Client Profile', { exact: false });
    fireEvent.change(icp, { target: { value: 'y'.repeat(29) } });
    expect(counterOf('Ideal Client Profile').dataset.outOfRange).toBe('true');
    fireEvent.change(icp, { target: { value: 'y'.repeat(30) } });
    expect(counterOf('Ideal Client Profile').dataset.outOfRange).toBe('false');

    expect(counterOf('Call to Action').textContent).toBe('0/200');
    expect(counterOf('Call to Action').dataset.outOfRange).toBe('false');
    expect(counterOf('Writing Style').textContent).toBe('0/350');
  });

  it('validates with the contract schema before sending', async () => {
    mockEndpoint(productInfoEndpoints.get, EMPTY);
    renderForm();
    await userEvent.click(await screen.findByRole('button', { name: 'Save & Generate Keywords' }));
    expect(await screen.findByText('Product description must be at least 50 characters')).toBeTruthy();
    expect(screen.getByText('Ideal client profile must be at least 30 characters')).toBeTruthy();
    expect(screen.getByText('Call to action is required')).toBeTruthy();
    expect(screen.getByText('Writing style is required')).toBeTruthy();
    expect(sentRequests().filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('saves with keyword regeneration (POST) and moves on', async () => {
    const saved = { ...EMPTY, ...VALID, updated_at: '2030-01-01T00:00:00Z' };
    mockEndpoint(productInfoEndpoints.get, { ...EMPTY, ...VALID });
    const save = mockEndpoint(productInfoEndpoints.saveAndRegenerate, {
      product_info: saved,
      regenerate_keywords: true,
      keywords_generated: false,
      keywords_error: null,
    });
    const onKeywordsRegenerated = vi.fn();
    renderForm({ onKeywordsRegenerated });
    await userEvent.click(await screen.findByRole('button', { name: 'Save & Generate Keywords' }));
    await waitFor(() => expect(onKeywordsRegenerated).toHaveBeenCalledTimes(1));
    expect(save.calls[0]!.params.projectId).toBe(PROJECT_ID);
    expect(save.calls[0]!.rawBody).toEqual({
      ...VALID,
      updated_at: null,
      regenerate_keywords: true,
    });
  });

  it('moves on with a warning when keyword generation failed', async () => {
    mockEndpoint(productInfoEndpoints.get, { ...EMPTY, ...VALID });
    mockEndpoint(productInfoEndpoints.saveAndRegenerate, {
      product_info: { ...EMPTY, ...VALID },
      regenerate_keywords: true,
      keywords_generated: false,
      keywords_error: 'The AI engine did not answer in time',
    });
    const onKeywordsRegenerated = vi.fn();
    renderForm({ onKeywordsRegenerated });
    await userEvent.click(await screen.findByRole('button', { name: 'Save & Generate Keywords' }));
    expect(await screen.findByText('Keyword generation failed - you can retry in Step 2.')).toBeTruthy();
    expect(screen.getByText('Product information saved')).toBeTruthy();
    expect(onKeywordsRegenerated).toHaveBeenCalledTimes(1);
  });

  it('saves only (PUT) with Save', async () => {
    mockEndpoint(productInfoEndpoints.get, { ...EMPTY, ...VALID });
    const save = mockEndpoint(productInfoEndpoints.save, {
      product_info: { ...EMPTY, ...VALID },
      regenerate_keywords: false,
      keywords_generated: false,
      keywords_error: null,
    });
    const onKeywordsRegenerated = vi.fn();
    renderForm({ onKeywordsRegenerated });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(save.calls).toHaveLength(1));
    expect(save.calls[0]!.rawBody).toEqual({ ...VALID, updated_at: null });
    expect(onKeywordsRegenerated).not.toHaveBeenCalled();
  });

  it('refuses to overwrite a save made elsewhere: says so, keeps the text until reloaded', async () => {
    const opened = { ...EMPTY, ...VALID, updated_at: '2030-01-01T00:00:00.000Z' };
    const elsewhere = {
      ...opened,
      call_to_action: 'Reply to book a call.',
      updated_at: '2030-01-01T00:05:00.000Z',
    };
    let current = opened;
    mockEndpoint(productInfoEndpoints.get, () => current);
    const save = mockEndpoint(productInfoEndpoints.save, ({ body }) =>
      body.updated_at === current.updated_at
        ? {
            product_info: (current = { ...current, ...body, updated_at: '2030-01-01T00:10:00.000Z' }),
            regenerate_keywords: false,
            keywords_generated: false,
            keywords_error: null,
          }
        : errorReply(409, PRODUCT_INFO_CHANGED_DETAIL, PRODUCT_INFO_CHANGED),
    );
    renderForm();
    const style = (await screen.findByLabelText('Writing Style', { exact: false })) as HTMLTextAreaElement;
    await userEvent.type(style, ' Use first names.');
    // Another tab saves in the meantime.
    current = elsewhere;
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const title = await screen.findByText('Changed elsewhere');
    expect((title.closest('[role="alert"]') as HTMLElement).textContent).toContain(
      PRODUCT_INFO_CHANGED_DETAIL,
    );
    expect(save.calls[0]!.rawBody).toMatchObject({ updated_at: opened.updated_at });
    expect(screen.queryByText('Error saving product information')).toBeNull();
    expect(screen.queryByText('Product information saved')).toBeNull();
    expect(style.value).toBe('Friendly and short. Use first names.');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Reload saved information' }));
    await waitFor(() => expect(screen.queryByText('Changed elsewhere')).toBeNull());
    expect(style.value).toBe('Friendly and short.');
    const cta = screen.getByLabelText('Call to Action', { exact: false }) as HTMLTextAreaElement;
    expect(cta.value).toBe('Reply to book a call.');
    expect(screen.queryByText('Unsaved changes')).toBeNull();

    await userEvent.type(style, ' Use first names.');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(save.calls).toHaveLength(2));
    expect(save.calls[1]!.rawBody).toMatchObject({ updated_at: elsewhere.updated_at });
    expect(await screen.findByText('Product information saved')).toBeTruthy();
    expect(current.call_to_action).toBe('Reply to book a call.');
  });

  it('keeps unsaved edits over a switch of step or a reload, says so, and forgets them once saved', async () => {
    const saved = { ...EMPTY, ...VALID };
    mockEndpoint(productInfoEndpoints.get, () => saved);
    const save = mockEndpoint(productInfoEndpoints.save, ({ body }) => {
      Object.assign(saved, body);
      return {
        product_info: saved,
        regenerate_keywords: false,
        keywords_generated: false,
        keywords_error: null,
      };
    });
    const first = renderForm();
    const style = await screen.findByLabelText('Writing Style', { exact: false });
    await userEvent.type(style, ' Use first names.');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    first.unmount();

    renderForm();
    const again = (await screen.findByLabelText('Writing Style', { exact: false })) as HTMLTextAreaElement;
    expect(again.value).toBe('Friendly and short. Use first names.');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(save.calls).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).toBeNull());
    expect(localStorage.getItem(`projectDraft:productInfo:${PROJECT_ID}`)).toBeNull();
  });

  it('drops kept edits made from texts saved differently since', async () => {
    localStorage.setItem(
      `projectDraft:productInfo:${PROJECT_ID}`,
      JSON.stringify({
        base: JSON.stringify({ ...VALID, writing_style: 'Formal.' }),
        values: { ...VALID, writing_style: 'Stale edit' },
      }),
    );
    mockEndpoint(productInfoEndpoints.get, { ...EMPTY, ...VALID });
    renderForm();
    const style = (await screen.findByLabelText('Writing Style', { exact: false })) as HTMLTextAreaElement;
    expect(style.value).toBe('Friendly and short.');
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('shows the error with the server message', async () => {
    mockEndpoint(productInfoEndpoints.get, { ...EMPTY, ...VALID });
    mockEndpoint(
      productInfoEndpoints.save,
      errorReply(400, 'Call to action is too long', 'validation_error'),
    );
    renderForm();
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const title = await screen.findByText('Error saving product information');
    const alert = title.closest('[role="alert"]') as HTMLElement;
    expect(alert.textContent).toContain('Call to action is too long');
  });

  it('disables saving for read-only users', async () => {
    mockEndpoint(productInfoEndpoints.get, EMPTY);
    renderForm({ readOnly: true });
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Save & Generate Keywords' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('validateProductInfo trims and accepts valid input', () => {
    const result = validateProductInfo({ ...VALID, writing_style: '  Friendly.  ' });
    expect(result).toEqual({ ok: true, data: { ...VALID, writing_style: 'Friendly.' } });
  });
});

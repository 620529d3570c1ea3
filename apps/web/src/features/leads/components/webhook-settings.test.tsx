import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { leadsEndpoints, type TWebhook } from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { PROJECT_ID, renderScreen } from '../../../test/discovery.test-support';
import { getToken } from '../../../lib/token-storage';
import { ExportCsvButton, WebhookPanel } from './export-panel';

const user = userEvent.setup({ delay: null });

const NO_WEBHOOK: TWebhook = {
  url: null,
  enabled: false,
  secret_last4: null,
  last_delivery_at: null,
  last_status: null,
};

async function openPanel() {
  renderScreen(<WebhookPanel projectId={PROJECT_ID} readOnly={false} />);
  await user.click(screen.getByRole('button', { name: 'Lead webhook' }));
}

// jsdom has no object URLs: the download's file is caught where the browser would get it.
const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
afterEach(() => {
  URL.createObjectURL = objectUrls.create;
  URL.revokeObjectURL = objectUrls.revoke;
});

describe('Export CSV', { timeout: 15_000 }, () => {
  it("saves the file under the name the server gives it, the project's name and the day", async () => {
    mockEndpoint(
      leadsEndpoints.exportCsv,
      () =>
        new HttpResponse('kind\n', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="leads-acme-crm-eu-2030-01-31.csv"',
          },
        }),
    );
    URL.createObjectURL = vi.fn(() => 'blob:leads');
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    renderScreen(<ExportCsvButton projectId={PROJECT_ID} />);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(clicked[0]!.download).toBe('leads-acme-crm-eu-2030-01-31.csv');
  });

  it('downloads leads.csv with the bearer token and saves it as a file', async () => {
    const csv = 'kind,title,intent_score\npost,Any CRM?,80\n';
    const file = mockEndpoint(
      leadsEndpoints.exportCsv,
      () => new HttpResponse(csv, { headers: { 'Content-Type': 'text/csv' } }),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:leads');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    renderScreen(<ExportCsvButton projectId={PROJECT_ID} />);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(file.calls[0]!.headers.get('Authorization')).toBe(`Bearer ${getToken()}`);
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe(csv);
    expect(clicked[0]!.download).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(clicked[0]!.href).toBe('blob:leads');
  });

  it('says when the export fails', async () => {
    mockEndpoint(leadsEndpoints.exportCsv, errorReply(500, 'database down', 'internal'));
    renderScreen(<ExportCsvButton projectId={PROJECT_ID} />);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Failed to export leads: database down')).toBeTruthy();
  });
});

describe('Lead webhook', { timeout: 15_000 }, () => {
  it('loads only when opened, saves the address and shows the new secret once', async () => {
    const get = mockEndpoint(leadsEndpoints.getWebhook, NO_WEBHOOK);
    const put = mockEndpoint(leadsEndpoints.updateWebhook, ({ body }) => ({
      url: body.url,
      enabled: body.enabled,
      secret: 'whsec_0123456789abcdef',
      secret_last4: 'cdef',
      last_delivery_at: null,
      last_status: null,
    }));
    renderScreen(<WebhookPanel projectId={PROJECT_ID} readOnly={false} />);
    expect(get.calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Lead webhook' }));
    await user.type(await screen.findByLabelText('Webhook URL'), 'https://hooks.example.com/leads');
    await user.click(screen.getByRole('switch', { name: 'Enabled' }));
    await user.click(screen.getByRole('button', { name: 'Save Webhook' }));

    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_0123456789abcdef');
    expect(put.calls[0]!.rawBody).toEqual({
      url: 'https://hooks.example.com/leads',
      enabled: true,
      rotate_secret: false,
    });
    expect(screen.getByText(/Signing secret ends in cdef/)).toBeTruthy();
    expect(screen.getByText('Signing secret (shown only once)')).toBeTruthy();
  });

  it('rotates the secret, sends a test, and removes the webhook', async () => {
    mockEndpoint(leadsEndpoints.getWebhook, {
      ...NO_WEBHOOK,
      url: 'https://hooks.example.com/leads',
      enabled: true,
      secret_last4: 'abcd',
      last_delivery_at: '2030-01-01T00:00:00Z',
      last_status: '200',
    });
    const put = mockEndpoint(leadsEndpoints.updateWebhook, ({ body }) => ({
      ...NO_WEBHOOK,
      url: body.url,
      enabled: body.enabled,
      ...(body.rotate_secret ? { secret: 'whsec_rotated', secret_last4: 'ated' } : {}),
    }));
    mockEndpoint(leadsEndpoints.testWebhook, { message: 'Test delivery answered 200' });
    await openPanel();
    await user.click(await screen.findByRole('button', { name: 'Rotate Secret' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_rotated');
    expect(put.calls[0]!.rawBody).toMatchObject({ rotate_secret: true });

    await user.click(screen.getByRole('button', { name: 'Send Test' }));
    expect(await screen.findByText('Test delivery answered 200')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Webhook removed')).toBeTruthy();
    expect(put.calls[1]!.rawBody).toMatchObject({ url: null });
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('shows why a save was refused', async () => {
    mockEndpoint(leadsEndpoints.getWebhook, NO_WEBHOOK);
    mockEndpoint(
      leadsEndpoints.updateWebhook,
      errorReply(400, 'Webhook addresses must not resolve to private networks', 'validation_error'),
    );
    await openPanel();
    await user.click(await screen.findByRole('button', { name: 'Save Webhook' }));
    expect(await screen.findByText('Enter the address that receives new leads')).toBeTruthy();
    await user.type(screen.getByLabelText('Webhook URL'), 'https://10.0.0.1/hook');
    await user.click(screen.getByRole('button', { name: 'Save Webhook' }));
    expect(
      await screen.findByText(
        'Failed to save the webhook: Webhook addresses must not resolve to private networks',
      ),
    ).toBeTruthy();
  });
});

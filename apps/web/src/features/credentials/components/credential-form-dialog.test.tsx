import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { credentialsEndpoints } from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { buildCredential, renderSignedIn } from '../credentials.test-support';
import { CredentialFormDialog, KEEP_SECRET_PLACEHOLDER } from './credential-form-dialog';

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label, { exact: false });

async function openAdd(onClose = vi.fn()) {
  renderSignedIn(<CredentialFormDialog opened onClose={onClose} />);
  return screen.findByRole('dialog', { name: 'Add Credential' });
}

describe('Add Credential', () => {
  it('keeps Create disabled until account name, client id and client secret are filled', async () => {
    const dialog = await openAdd();
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create.hasAttribute('disabled')).toBe(true);

    await userEvent.type(field(dialog, 'Account Name'), 'search_bot');
    expect(create.hasAttribute('disabled')).toBe(true);
    await userEvent.type(field(dialog, 'Client ID'), 'client-1');
    expect(create.hasAttribute('disabled')).toBe(true);
    await userEvent.type(field(dialog, 'Client Secret'), 's3cret');
    expect(create.hasAttribute('disabled')).toBe(false);

    // Blank (whitespace only) does not count as filled.
    fireEvent.change(field(dialog, 'Account Name'), { target: { value: '   ' } });
    expect(create.hasAttribute('disabled')).toBe(true);
  });

  it('offers the two types, a password field for the secret and Enabled on by default', async () => {
    const dialog = await openAdd();
    const type = field(dialog, 'Type') as HTMLSelectElement;
    expect([...type.options].map((o) => o.text)).toEqual(['Search (read-only)', 'Send (OAuth)']);
    expect(field(dialog, 'Client Secret').getAttribute('type')).toBe('password');
    expect((within(dialog).getByRole('checkbox', { name: 'Enabled' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(field(dialog, 'Country Code').getAttribute('maxlength')).toBe('2');
    expect(field(dialog, 'State').getAttribute('maxlength')).toBe('10');
    expect(field(dialog, 'City').getAttribute('maxlength')).toBe('50');
  });

  it('sends the contract-shaped body and closes', async () => {
    const onClose = vi.fn();
    const create = mockEndpoint(credentialsEndpoints.create, buildCredential());
    const dialog = await openAdd(onClose);
    await userEvent.selectOptions(field(dialog, 'Type'), 'send');
    await userEvent.type(field(dialog, 'Account Name'), '  send_bot ');
    await userEvent.type(field(dialog, 'Client ID'), 'client-1');
    await userEvent.type(field(dialog, 'Client Secret'), 's3cret');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Enabled' }));
    await userEvent.type(field(dialog, 'Country Code'), 'US');
    await userEvent.type(field(dialog, 'City'), 'Austin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(create.calls[0]!.rawBody).toEqual({
      type: 'send',
      account_name: 'send_bot',
      client_id: 'client-1',
      client_secret: 's3cret',
      description: null,
      enabled: false,
      proxy_preferences: { country: 'US', state: null, city: 'Austin' },
    });
    expect(await screen.findByText('Credential created')).toBeTruthy();
  });

  it('checks the proxy location with the contract schema before sending', async () => {
    const dialog = await openAdd();
    await userEvent.type(field(dialog, 'Account Name'), 'bot');
    await userEvent.type(field(dialog, 'Client ID'), 'client-1');
    await userEvent.type(field(dialog, 'Client Secret'), 's3cret');
    fireEvent.change(field(dialog, 'Country Code'), { target: { value: '12' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Country code must be two letters, such as US')).toBeTruthy();
    expect(sentRequests()).toHaveLength(0);
  });

  it('accepts places in any language, such as São Paulo, and sends them as typed', async () => {
    const create = mockEndpoint(credentialsEndpoints.create, buildCredential());
    const dialog = await openAdd();
    await userEvent.type(field(dialog, 'Account Name'), 'bot');
    await userEvent.type(field(dialog, 'Client ID'), 'client-1');
    await userEvent.type(field(dialog, 'Client Secret'), 's3cret');
    await userEvent.type(field(dialog, 'Country Code'), 'BR');
    await userEvent.type(field(dialog, 'State'), 'São Paulo');
    await userEvent.type(field(dialog, 'City'), 'São Paulo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(create.calls).toHaveLength(1));
    expect(create.calls[0]!.rawBody).toMatchObject({
      proxy_preferences: { country: 'BR', state: 'São Paulo', city: 'São Paulo' },
    });
  });

  it("shows 'Failed to create credential: …' with the server's detail", async () => {
    mockEndpoint(
      credentialsEndpoints.create,
      errorReply(409, 'A credential with this client ID exists', 'conflict'),
    );
    const dialog = await openAdd();
    await userEvent.type(field(dialog, 'Account Name'), 'bot');
    await userEvent.type(field(dialog, 'Client ID'), 'client-1');
    await userEvent.type(field(dialog, 'Client Secret'), 's3cret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to create credential: A credential with this client ID exists',
    );
  });
});

describe('Edit Credential', () => {
  const credential = buildCredential({
    account_name: 'search_bot',
    description: 'Main search app',
    proxy_preferences: { country: 'US', state: 'TX', city: null },
  });

  async function openEdit(onClose = vi.fn()) {
    renderSignedIn(<CredentialFormDialog opened onClose={onClose} credential={credential} />);
    return screen.findByRole('dialog', { name: 'Edit Credential' });
  }

  it('shows the id read-only and the secret empty with its placeholder', async () => {
    const dialog = await openEdit();
    const id = field(dialog, 'ID') as HTMLInputElement;
    expect(id.value).toBe(credential.id);
    expect(id.readOnly).toBe(true);
    const secret = field(dialog, 'Client Secret') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe(KEEP_SECRET_PLACEHOLDER);
    expect((field(dialog, 'Country Code') as HTMLInputElement).value).toBe('US');
    expect(within(dialog).queryByLabelText('Client ID', { exact: false })).toBeNull();
  });

  it('leaves an empty client secret out of the request', async () => {
    const onClose = vi.fn();
    const update = mockEndpoint(credentialsEndpoints.update, credential);
    const dialog = await openEdit(onClose);
    await userEvent.clear(field(dialog, 'Account Name'));
    await userEvent.type(field(dialog, 'Account Name'), 'renamed_bot');
    await userEvent.clear(field(dialog, 'State'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(update.calls[0]!.params.id).toBe(credential.id);
    const body = update.calls[0]!.rawBody;
    expect(body).toEqual({
      account_name: 'renamed_bot',
      description: 'Main search app',
      proxy_preferences: { country: 'US', state: null, city: null },
    });
    expect(body).not.toHaveProperty('client_secret');
  });

  it('sends a new client secret when one is typed', async () => {
    const update = mockEndpoint(credentialsEndpoints.update, credential);
    const dialog = await openEdit();
    await userEvent.type(field(dialog, 'Client Secret'), 'new-secret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(update.calls).toHaveLength(1));
    expect(update.calls[0]!.rawBody).toMatchObject({
      client_secret: 'new-secret',
    });
  });

  it("shows 'Failed to update credential: …' with the server's detail", async () => {
    mockEndpoint(credentialsEndpoints.update, errorReply(404, 'Credential not found', 'not_found'));
    const dialog = await openEdit();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to update credential: Credential not found',
    );
  });
});

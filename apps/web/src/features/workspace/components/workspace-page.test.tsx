import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  authEndpoints,
  productInfoEndpoints,
  projectsEndpoints,
  subredditsEndpoints,
  systemEndpoints,
  usersEndpoints,
  type TProductInfo,
  type TProject,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { renderApp } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { getToken, setToken } from '../../../lib/token-storage';
import type * as NavigationModule from '../../../lib/navigation';

const navigation = vi.hoisted(() => ({ reloadPage: vi.fn() }));
vi.mock('../../../lib/navigation', async (importOriginal) => {
  const real = await importOriginal<typeof NavigationModule>();
  return { ...real, reloadPage: navigation.reloadPage };
});

function project(id: string, name: string, extra: Partial<TProject> = {}): TProject {
  return {
    id,
    user_id: 'user-1',
    name,
    description: null,
    without_keywords: false,
    created_at: '2030-01-01T00:00:00Z',
    updated_at: '2030-01-01T00:00:00Z',
    ...extra,
  };
}

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const P3 = '33333333-3333-4333-8333-333333333333';
const P9 = '99999999-9999-4999-8999-999999999999';

const EMPTY_INFO = (id: string): TProductInfo => ({
  project_id: id,
  product_description: '',
  ideal_client_profile: '',
  call_to_action: '',
  writing_style: '',
  updated_at: null,
});

function setup(opts: { roles?: string[]; limit?: number; used?: number; projects?: TProject[] }) {
  const roles = opts.roles ?? ['USER'];
  const limit = opts.limit ?? 3;
  setToken(makeToken({ roles, profiles_limit: limit }));
  const projects = opts.projects ?? [];
  mockEndpoint(systemEndpoints.publicConfig, {
    demo_mode: false,
    main_app_url: null,
    support_chat_script_url: null,
  });
  mockEndpoint(usersEndpoints.me, {
    user_id: 'user-1',
    email: 'user@example.com',
    roles,
    profiles_limit: limit,
    projects_used: opts.used ?? projects.length,
  });
  mockEndpoint(projectsEndpoints.list, { items: projects, total: projects.length, limit: 500, offset: 0 });
  mockEndpoint(productInfoEndpoints.get, ({ params }) => EMPTY_INFO(params.projectId));
  mockEndpoint(subredditsEndpoints.list, { items: [], total: 0, limit: 200, offset: 0 });
  mockEndpoint(subredditsEndpoints.status, {
    status: 'idle',
    error: null,
    started_at: null,
    finished_at: null,
    duration_seconds: null,
    progress: null,
  });
}

describe('workspace top bar', () => {
  it('shows title, New Project, the projects badge and Logout for a subscriber; no admin links', async () => {
    setup({ limit: 3, used: 1, projects: [project(P1, 'Alpha')] });
    renderApp('/');
    expect(await screen.findByText('Projects 1/3')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Threadreach' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New Project' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'System Logs' })).toBeNull();
    expect(screen.queryByText('Read-only access - contact administrator')).toBeNull();
  });

  it('shows the admin links and an unlimited badge to admins', async () => {
    setup({ roles: ['ADMIN'], limit: 0, used: 4 });
    renderApp('/');
    expect(await screen.findByText('Projects 4/∞')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'System Logs' }).getAttribute('href')).toBe('/logs');
    expect(screen.getByRole('link', { name: 'Statistics' }).getAttribute('href')).toBe('/stats');
    expect(screen.getByRole('link', { name: 'Credentials' }).getAttribute('href')).toBe('/credentials');
  });

  it('Logout removes the token, calls the server and reloads', async () => {
    setup({});
    const logout = mockEndpoint(authEndpoints.logout, undefined);
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(navigation.reloadPage).toHaveBeenCalled());
    expect(getToken()).toBeNull();
    expect(logout.calls).toHaveLength(1);
  });

  it('shows the read-only flag and disables saving for READONLY users', async () => {
    setup({ roles: ['READONLY'], projects: [project(P1, 'Alpha')] });
    renderApp('/');
    expect(await screen.findByText('Read-only access - contact administrator')).toBeTruthy();
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
  });
});

describe('projects', () => {
  it('prompts for a first project and creates one', async () => {
    const created = project(P9, 'My Shop');
    let list: TProject[] = [];
    setup({});
    mockEndpoint(projectsEndpoints.list, () => ({ items: list, total: list.length, limit: 500, offset: 0 }));
    const create = mockEndpoint(projectsEndpoints.create, () => {
      list = [created];
      return created;
    });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Your First Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Project' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    expect(await within(dialog).findByText('Project name is required')).toBeTruthy();

    await userEvent.type(within(dialog).getByLabelText('Project Name', { exact: false }), 'My Shop');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Shoes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(create.calls[0]!.rawBody).toEqual({ name: 'My Shop', description: 'Shoes' });
    expect(await screen.findByTestId('current-project-name')).toHaveProperty('textContent', 'My Shop');
    expect(localStorage.getItem('selectedProjectId')).toBe(P9);
  });

  it.each([
    [403, 'Project limit reached (3 of 3)', 'Project limit reached (3 of 3)'],
    [403, undefined, 'Project limit reached. Upgrade your subscription to create more projects.'],
    [500, undefined, 'Error creating project'],
  ])('shows the creation error for %i with detail %s', async (status, detail, expected) => {
    setup({ projects: [project(P1, 'Alpha')] });
    mockEndpoint(projectsEndpoints.create, errorReply(status, detail ?? '', 'x'));
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'New Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Project' });
    await userEvent.type(within(dialog).getByLabelText('Project Name', { exact: false }), 'Beta');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(expected);
  });

  it('blocks creation at the project limit without calling the server', async () => {
    setup({ limit: 1, used: 1, projects: [project(P1, 'Alpha')] });
    renderApp('/');
    await screen.findByText('Projects 1/1');
    await userEvent.click(screen.getByRole('button', { name: 'New Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Project' });
    await userEvent.type(within(dialog).getByLabelText('Project Name', { exact: false }), 'Beta');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Project limit reached. Upgrade your subscription to create more projects.',
    );
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("picks the saved project, then 'Default Project', then the first", async () => {
    const projects = [project(P1, 'Alpha'), project(P2, 'Default Project'), project(P3, 'Gamma')];
    setup({ projects });
    const first = renderApp('/');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Default Project');
    first.unmount();

    localStorage.setItem('selectedProjectId', P3);
    setup({ projects });
    const second = renderApp('/');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Gamma');
    second.unmount();

    localStorage.removeItem('selectedProjectId');
    setup({ projects: [project(P1, 'Alpha'), project(P3, 'Gamma')] });
    renderApp('/');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Alpha');
  });

  it('shows the owner to admins viewing another user’s project', async () => {
    setup({
      roles: ['ADMIN'],
      projects: [project(P1, 'Theirs', { user_id: 'other-7', owner_email: 'other@example.com' })],
    });
    renderApp('/');
    expect(await screen.findByText('Owner ID: other-7')).toBeTruthy();
    expect(screen.getByText('Owner e-mail: other@example.com')).toBeTruthy();
  });
});

describe('steps', () => {
  it('navigates freely and remembers the step per project', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    const view = renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Workflow steps' });
    for (const title of [
      'Product Information',
      'Keywords',
      'Subreddits',
      'Posts & Messages',
      'Agent Activity',
    ]) {
      expect(within(nav).getByRole('button', { name: new RegExp(title) })).toBeTruthy();
    }
    await userEvent.click(within(nav).getByRole('button', { name: /Subreddits/ }));
    expect(await screen.findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
    expect(localStorage.getItem(`projectStep:${P1}`)).toBe('3');
    view.unmount();

    setup({ projects: [project(P1, 'Alpha')] });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
  });
});

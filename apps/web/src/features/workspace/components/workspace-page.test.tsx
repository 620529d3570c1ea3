import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  accountsEndpoints,
  agentEndpoints,
  connectedElsewhereDetail,
  authEndpoints,
  keywordsEndpoints,
  productInfoEndpoints,
  PROJECT_NOT_FOUND,
  projectsEndpoints,
  statisticsEndpoints,
  subredditsEndpoints,
  systemEndpoints,
  usersEndpoints,
  type TProductInfo,
  type TProject,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import {
  buildAgentSettings,
  buildAgentStatus,
  mockAgentAtRest,
  runningAgentSettings,
} from '../../../test/agent.test-support';
import { accountList, buildConnectedAccount } from '../../../test/accounts.test-support';
import { buildProject } from '../../../test/projects.test-support';
import { advance } from '../../../test/discovery.test-support';
import { renderApp, testGoBack, testLocation } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { getToken, setToken } from '../../../lib/token-storage';
import { recordPageLoads } from '../../../test/navigation.test-support';
import { AGENT_REFRESH_MS } from '../../agent';
import { createQueryClient } from '../../../app/query-client';

let pageLoads: ReturnType<typeof recordPageLoads>;
beforeEach(() => {
  pageLoads = recordPageLoads();
});

const project = buildProject;

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const P3 = '33333333-3333-4333-8333-333333333333';
const P9 = '99999999-9999-4999-8999-999999999999';

const READ_ONLY = 'Read-only access - contact administrator';
const NO_PERMISSION = "You don't have permission to create projects.";
const FOREIGN_BANNER = /^Read-only: this project belongs to /;
const AI_REQUIRED = 'Subscription required for AI features';
const LIMIT_REACHED = 'Project limit reached. Upgrade your subscription to create more projects.';

const EMPTY_INFO = (id: string): TProductInfo => ({
  project_id: id,
  product_description: '',
  ideal_client_profile: '',
  call_to_action: '',
  writing_style: '',
  updated_at: null,
});

function setup(opts: {
  roles?: string[];
  limit?: number;
  used?: number;
  projects?: TProject[];
  userId?: string;
}) {
  const roles = opts.roles ?? ['USER'];
  const limit = opts.limit ?? 3;
  const userId = opts.userId ?? 'user-1';
  setToken(makeToken({ sub: userId, roles, profiles_limit: limit }));
  const projects = opts.projects ?? [];
  mockEndpoint(systemEndpoints.publicConfig, {
    demo_mode: false,
    main_app_url: null,
    support_chat_script_url: null,
    reddit_web_url: 'https://www.reddit.com',
    dm_expiry_days: 14,
  });
  mockEndpoint(usersEndpoints.me, {
    user_id: userId,
    email: 'user@example.com',
    roles,
    profiles_limit: limit,
    projects_used: opts.used ?? projects.length,
  });
  mockEndpoint(projectsEndpoints.list, { items: projects, total: projects.length, limit: 500, offset: 0 });
  mockEndpoint(productInfoEndpoints.get, ({ params }) => EMPTY_INFO(params.projectId));
  mockEndpoint(accountsEndpoints.list, accountList([]));
  mockAgentAtRest();
  mockEndpoint(keywordsEndpoints.list, {
    items: [],
    total: 0,
    limit: 200,
    offset: 0,
    filters: { negative_keywords: [], excluded_subreddits: [], excluded_authors: [] },
  });
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

  it("treats a failed read of the user's subscription as a limit of 0: Subscribe, and New Project blocked", async () => {
    setup({ limit: 3, used: 1, projects: [project(P1, 'Alpha')] });
    mockEndpoint(usersEndpoints.me, errorReply(500, 'Internal server error', 'internal'));
    renderApp('/');
    const subscribe = await screen.findByRole('link', { name: 'Subscribe' });
    expect(subscribe.getAttribute('href')).toBe('/subscribe');
    expect(screen.queryByText(/^Projects /)).toBeNull();
    const button = screen.getByRole('button', { name: 'New Project' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
  });

  it(
    'disables AI generation when the plan lapsed under a signed-in customer; the rest stays usable',
    { timeout: 15_000 },
    async () => {
      setup({ limit: 3, used: 1, projects: [project(P1, 'Alpha')] });
      // The token still carries the old limit; the subscription read says it is gone.
      mockEndpoint(usersEndpoints.me, {
        user_id: 'user-1',
        email: 'user@example.com',
        roles: ['USER'],
        profiles_limit: 0,
        projects_used: 1,
      });
      // Until a refresh brings a token that says so (here the server cannot give one yet).
      mockEndpoint(authEndpoints.refreshWithToken, errorReply(503, 'Service unavailable', 'unavailable'));
      renderApp('/');
      const banner = await screen.findByRole('status', { name: AI_REQUIRED });
      expect(within(banner).getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe(
        '/subscribe',
      );
      const generate = await screen.findByRole('button', { name: 'Save & Generate Keywords' });
      expect(generate.hasAttribute('disabled')).toBe(true);
      expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
      await userEvent.hover(generate.parentElement!);
      expect(await screen.findByRole('tooltip', { name: AI_REQUIRED })).toBeTruthy();
    },
  );

  it(
    'keeps AI generation for a moderator without a plan, as the server does',
    { timeout: 15_000 },
    async () => {
      setup({ roles: ['MODERATOR'], limit: 0, used: 1, projects: [project(P1, 'Alpha')] });
      renderApp('/');
      const generate = await screen.findByRole('button', { name: 'Save & Generate Keywords' });
      expect(generate.hasAttribute('disabled')).toBe(false);
      expect(screen.queryByText(AI_REQUIRED)).toBeNull();
    },
  );

  it('Logout removes the token, calls the server and reloads', async () => {
    setup({});
    const logout = mockEndpoint(authEndpoints.logout, undefined);
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(pageLoads.reload).toHaveBeenCalled());
    expect(getToken()).toBeNull();
    expect(logout.calls).toHaveLength(1);
    // The next sign-in asks the provider who signs in.
    expect(localStorage.getItem('signedOut')).toBe('1');
  });

  it('shows the read-only flag and disables saving for READONLY users', async () => {
    setup({ roles: ['READONLY'], projects: [project(P1, 'Alpha')] });
    renderApp('/');
    const flag = await screen.findByText(READ_ONLY, { selector: '.mantine-Badge-label' });
    expect(screen.getByRole('banner').contains(flag)).toBe(true);
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
  });

  it('shows moderators the Statistics and Credentials links, without System Logs', async () => {
    setup({ roles: ['MODERATOR'], limit: 0, used: 0 });
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Administration' });
    expect(within(nav).getByRole('link', { name: 'Statistics' }).getAttribute('href')).toBe('/stats');
    expect(within(nav).getByRole('link', { name: 'Credentials' }).getAttribute('href')).toBe('/credentials');
    expect(within(nav).queryByRole('link', { name: 'System Logs' })).toBeNull();
  });

  it('shows no administration links to READONLY users', async () => {
    setup({ roles: ['READONLY'], projects: [project(P1, 'Alpha')] });
    renderApp('/');
    await screen.findByRole('button', { name: 'Logout' });
    expect(screen.queryByRole('navigation', { name: 'Administration' })).toBeNull();
  });

  it('shows toasts at the bottom right, away from the top bar', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    renderApp('/');
    await screen.findByText('Projects 1/3');
    // The toasts' container is not part of the first page: it comes with the first toast.
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
    await userEvent.keyboard('{Control>}{Shift>}C{/Shift}{/Control}');
    const toast = await screen.findByText('No stuck loading states');
    const region = toast.closest('[data-position]');
    expect(region?.getAttribute('data-position')).toBe('bottom-right');
    expect(within(screen.getByRole('banner')).queryByText('No stuck loading states')).toBeNull();
  });
});

describe('New Project', () => {
  const reasonOf = (button: HTMLElement) => {
    const id = button.getAttribute('aria-describedby');
    return id ? document.getElementById(id)?.textContent : null;
  };

  it('is disabled at the project limit, with the reason, and opens no form', async () => {
    setup({ limit: 1, used: 1, projects: [project(P1, 'Alpha')] });
    renderApp('/');
    await screen.findByText('Projects 1/1');
    const button = screen.getByRole('button', { name: 'New Project' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(reasonOf(button)).toBe(LIMIT_REACHED);
    await userEvent.click(button);
    expect(screen.queryByRole('dialog', { name: 'Create New Project' })).toBeNull();
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('is disabled for READONLY users, saying they may not create projects', async () => {
    setup({ roles: ['READONLY'], projects: [project(P1, 'Alpha')] });
    renderApp('/');
    const button = await screen.findByRole('button', { name: 'New Project' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(reasonOf(button)).toBe(NO_PERMISSION);
    await userEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('disables the first-project prompt for a READONLY user without projects, saying why', async () => {
    setup({ roles: ['READONLY'] });
    renderApp('/');
    const button = await screen.findByRole('button', { name: 'Create Your First Project' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(reasonOf(button)).toBe(NO_PERMISSION);
    await userEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is enabled below the limit and for admins', async () => {
    setup({ limit: 3, used: 2, projects: [project(P1, 'Alpha'), project(P2, 'Beta')] });
    const view = renderApp('/');
    await screen.findByText('Projects 2/3');
    expect(screen.getByRole('button', { name: 'New Project' }).hasAttribute('aria-disabled')).toBe(false);
    view.unmount();

    setup({ roles: ['ADMIN'], limit: 0, used: 40 });
    renderApp('/');
    await screen.findByText('Projects 40/∞');
    expect(screen.getByRole('button', { name: 'New Project' }).hasAttribute('aria-disabled')).toBe(false);
  });
});

describe('long project names', () => {
  it('end in an ellipsis in the sidebar and the selector, with the full name on hover', async () => {
    const name = `Spring campaign for designer bookkeeping ${'very '.repeat(10)}long`.slice(0, 100);
    setup({ projects: [project(P1, name)] });
    renderApp('/');
    const current = await screen.findByTestId('current-project-name');
    expect(current.getAttribute('data-truncate')).toBe('end');
    expect(current.getAttribute('title')).toBe(name);
    const selector = screen.getByRole('combobox', { name: 'Project' });
    expect(selector.getAttribute('title')).toBe(name);
    expect(selector.style.textOverflow).toBe('ellipsis');
  });
});

describe('logout', () => {
  it('forgets the selected project, and the steps, tabs, orders, filters, search settings and unsaved DM and product edits per project', async () => {
    setup({ projects: [project(P1, 'Alpha'), project(P2, 'Beta')] });
    localStorage.setItem('selectedProjectId', P2);
    localStorage.setItem(`projectStep:${P2}`, '3');
    localStorage.setItem(`projectDmEdits:${P2}`, '{"dm-1":"My own words"}');
    localStorage.setItem(`projectDraft:productInfo:${P2}`, '{"base":{},"values":{}}');
    localStorage.setItem(`projectTab:${P2}`, 'comments');
    localStorage.setItem(`projectSort:${P2}`, 'intent');
    localStorage.setItem(`projectMinScore:${P2}`, '50');
    localStorage.setItem(`projectSearchTypes:${P2}`, '{"posts":true,"comments":false}');
    localStorage.setItem('unrelated', 'kept');
    mockEndpoint(authEndpoints.logout, undefined);
    renderApp('/');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Beta');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(pageLoads.reload).toHaveBeenCalled());
    expect(localStorage.getItem('selectedProjectId')).toBeNull();
    expect(localStorage.getItem(`projectStep:${P2}`)).toBeNull();
    expect(localStorage.getItem(`projectDmEdits:${P2}`)).toBeNull();
    expect(localStorage.getItem(`projectDraft:productInfo:${P2}`)).toBeNull();
    expect(localStorage.getItem(`projectTab:${P2}`)).toBeNull();
    expect(localStorage.getItem(`projectSort:${P2}`)).toBeNull();
    expect(localStorage.getItem(`projectMinScore:${P2}`)).toBeNull();
    expect(localStorage.getItem(`projectSearchTypes:${P2}`)).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
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
    // The new project opens at its first step, with focus there.
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H2'));
    expect(document.activeElement?.closest('main')).not.toBeNull();
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

  it('opens a project made with New Project at its first step, focus there, not on the button', async () => {
    const created = project(P9, 'Beta');
    let list: TProject[] = [project(P1, 'Alpha')];
    setup({ projects: list });
    mockEndpoint(projectsEndpoints.list, () => ({ items: list, total: list.length, limit: 500, offset: 0 }));
    mockEndpoint(projectsEndpoints.create, () => {
      list = [...list, created];
      return created;
    });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'New Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Project' });
    await userEvent.type(within(dialog).getByLabelText('Project Name', { exact: false }), 'Beta');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('current-project-name').textContent).toBe('Beta'));
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H2'));
    expect(document.activeElement?.closest('main')).not.toBeNull();
    // Opening the dialog again and cancelling returns focus to the button, as before.
    const button = screen.getByRole('button', { name: 'New Project' });
    await userEvent.click(button);
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Create New Project' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('renames a project from its settings', async () => {
    let list = [project(P1, 'Alpha'), project(P2, 'Beta')];
    setup({ projects: list });
    mockEndpoint(projectsEndpoints.list, () => ({ items: list, total: list.length, limit: 500, offset: 0 }));
    const update = mockEndpoint(projectsEndpoints.update, ({ params, body }) => {
      list = list.map((p) => (p.id === params.projectId ? { ...p, ...body } : p)) as TProject[];
      return list.find((p) => p.id === params.projectId)!;
    });
    localStorage.setItem('selectedProjectId', P1);
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Project settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Project settings' });
    const name = within(dialog).getByLabelText('Project Name', { exact: false });
    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Project name is required')).toBeTruthy();
    await userEvent.type(name, 'Alpha shoes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(update.calls).toHaveLength(1);
    expect(update.calls[0]!.rawBody).toEqual({ name: 'Alpha shoes', description: null });
    expect(await screen.findByText('Project saved')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('current-project-name').textContent).toBe('Alpha shoes'));
  });

  it('deletes a project after a second click that names it, then shows the next one', async () => {
    let list = [project(P1, 'Alpha'), project(P2, 'Beta')];
    setup({ projects: list, limit: 2 });
    mockEndpoint(projectsEndpoints.list, () => ({ items: list, total: list.length, limit: 500, offset: 0 }));
    const remove = mockEndpoint(projectsEndpoints.delete, ({ params }) => {
      list = list.filter((p) => p.id !== params.projectId);
      return undefined;
    });
    localStorage.setItem('selectedProjectId', P1);
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Project settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Project settings' });
    expect(within(dialog).getByText(/People its DMs reached stay on your do-not-contact list/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Project' }));
    expect(within(dialog).getByText('Delete "Alpha"? This cannot be undone.')).toBeTruthy();
    // Focus goes to the safe answer, and back to the button when the question is withdrawn.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep' }));
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Delete Project' }));
    await userEvent.keyboard('{Enter}');
    expect(remove.calls).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(remove.calls.map((c) => c.params.projectId)).toEqual([P1]);
    expect(await screen.findByText('✅ Project deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('current-project-name').textContent).toBe('Beta'));
  });

  it('says why a project could not be deleted and keeps it', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    mockEndpoint(projectsEndpoints.delete, errorReply(403, 'Not the owner', 'forbidden'));
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Project settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Project settings' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Project' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      "You don't have permission to delete this project. You can only delete your own projects.",
    );
    expect(await screen.findByText('❌ Error deleting Project')).toBeTruthy();
    expect(screen.getByTestId('current-project-name').textContent).toBe('Alpha');
  });

  it.each([
    ['Create Your First Project', '{Escape}', 'Create New Project', []],
    ['New Project', 'Cancel', 'Create New Project', [project(P1, 'Alpha')]],
    ['Project settings', '{Escape}', 'Project settings', [project(P1, 'Alpha')]],
    ['Project settings', 'Cancel', 'Project settings', [project(P1, 'Alpha')]],
  ])(
    'returns focus to %s when its dialog closes with %s',
    { timeout: 15_000 },
    async (opener, close, title, projects) => {
      setup({ projects });
      renderApp('/');
      const button = await screen.findByRole('button', { name: opener });
      button.focus();
      await userEvent.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: title });
      await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
      if (close.startsWith('{')) await userEvent.keyboard(close);
      else await userEvent.click(within(dialog).getByRole('button', { name: close }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(button));
    },
  );

  it('offers no project settings to READONLY users or on another user’s project', async () => {
    setup({ roles: ['READONLY'], projects: [project(P1, 'Alpha')] });
    const first = renderApp('/');
    await screen.findByTestId('current-project-name');
    expect(screen.queryByRole('button', { name: 'Project settings' })).toBeNull();
    first.unmount();

    localStorage.setItem('selectedProjectId', P2);
    setup({ roles: ['ADMIN'], projects: [project(P2, 'Theirs', { user_id: 'user-2' })] });
    renderApp('/');
    await screen.findByTestId('current-project-name');
    expect(screen.queryByRole('button', { name: 'Project settings' })).toBeNull();
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
    localStorage.setItem('selectedProjectId', P1);
    setup({
      roles: ['ADMIN'],
      userId: 'admin-1',
      projects: [project(P1, 'Theirs', { user_id: 'other-7', owner_email: 'other@example.com' })],
    });
    renderApp('/');
    expect(await screen.findByText('Owner ID: other-7')).toBeTruthy();
    expect(screen.getByText('Owner e-mail: other@example.com')).toBeTruthy();
  });
});

describe('admins and other users’ projects', () => {
  const THEIRS = { user_id: 'other-7', owner_email: 'other@example.com' };

  it('open an admin on their own project, not on another user’s Default Project', async () => {
    setup({
      roles: ['ADMIN'],
      userId: 'admin-1',
      projects: [
        project(P1, 'Default Project', THEIRS),
        project(P2, 'Mine', { user_id: 'admin-1', owner_email: 'admin@example.com' }),
        project(P3, 'Also theirs', THEIRS),
      ],
    });
    renderApp('/');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Mine');
    expect(screen.queryByRole('status', { name: FOREIGN_BANNER })).toBeNull();
  });

  it('prefers the admin’s own Default Project over their other projects', async () => {
    const mine = { user_id: 'admin-1', owner_email: 'admin@example.com' };
    setup({
      roles: ['ADMIN'],
      userId: 'admin-1',
      projects: [
        project(P1, 'Default Project', THEIRS),
        project(P2, 'Mine', mine),
        project(P3, 'Default Project', mine),
      ],
    });
    renderApp('/');
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Project' }) as HTMLSelectElement).value).toBe(P3),
    );
  });

  it('offer an admin without projects of their own the first-project prompt', async () => {
    setup({ roles: ['ADMIN'], userId: 'admin-1', projects: [project(P1, 'Default Project', THEIRS)] });
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
    expect(screen.queryByTestId('current-project-name')).toBeNull();
    // The others' projects stay one choice away.
    const selector = screen.getByRole('combobox', { name: 'Project' }) as HTMLSelectElement;
    expect(selector.value).toBe('');
    expect([...selector.options].map((o) => o.text)).toContain('Default Project (other@example.com)');
    expect(
      screen.getByText("One other user's project can be opened from the project selector above."),
    ).toBeTruthy();
  });

  it('show another user’s project read-only, with a banner naming its owner and no Save', async () => {
    setup({
      roles: ['ADMIN'],
      userId: 'admin-1',
      projects: [
        project(P1, 'Theirs', THEIRS),
        project(P2, 'Mine', { user_id: 'admin-1', owner_email: 'admin@example.com' }),
      ],
    });
    renderApp('/');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Mine');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Project' }), P1);

    const banner = await screen.findByRole('status', { name: FOREIGN_BANNER });
    expect(banner.textContent).toContain('Read-only: this project belongs to other@example.com');
    const form = await screen.findByRole('form', { name: 'Product Information' });
    expect(within(form).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    expect(
      within(form).getByRole('button', { name: 'Save & Generate Keywords' }).hasAttribute('disabled'),
    ).toBe(true);
    expect(
      within(form).getByLabelText('Product Description', { exact: false }).hasAttribute('readonly'),
    ).toBe(true);
    expect(localStorage.getItem('selectedProjectId')).toBe(P1);

    // Back on their own project, everything is editable again.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Project' }), P2);
    await waitFor(() => expect(screen.queryByRole('status', { name: FOREIGN_BANNER })).toBeNull());
  });
});

describe('a project deleted elsewhere', () => {
  it('is dropped from the selector when its reads answer "Project not found", and the next one opens', async () => {
    setup({ projects: [project(P1, 'Alpha'), project(P2, 'Beta')] });
    localStorage.setItem('selectedProjectId', P1);
    // Deleted in another tab after this one read the list: its reads answer 404, the list no longer has it.
    let listed = [project(P1, 'Alpha'), project(P2, 'Beta')];
    mockEndpoint(projectsEndpoints.list, () => ({
      items: listed,
      total: listed.length,
      limit: 500,
      offset: 0,
    }));
    mockEndpoint(accountsEndpoints.list, ({ params }) => {
      if (params.projectId !== P1) return accountList([]);
      listed = [project(P2, 'Beta')];
      return errorReply(404, PROJECT_NOT_FOUND, 'not_found');
    });
    renderApp('/', createQueryClient());
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Project' }) as HTMLSelectElement).value).toBe(P2),
    );
    const selector = screen.getByRole('combobox', { name: 'Project' }) as HTMLSelectElement;
    expect([...selector.options].map((o) => o.text)).not.toContain('Alpha');
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Beta');
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

  it('goes back through the steps shown before with Back, on the same address', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Workflow steps' });
    await userEvent.click(within(nav).getByRole('button', { name: /Subreddits/ }));
    expect(await screen.findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
    await userEvent.click(within(nav).getByRole('button', { name: /Product Information/ }));
    expect(await screen.findByRole('heading', { name: 'Product Information' })).toBeTruthy();
    await act(() => testGoBack());
    expect(await screen.findByRole('heading', { name: 'Subreddits' })).toBeTruthy();
    expect(localStorage.getItem(`projectStep:${P1}`)).toBe('3');
    await act(() => testGoBack());
    expect(await screen.findByRole('heading', { name: 'Product Information' })).toBeTruthy();
    expect(localStorage.getItem(`projectStep:${P1}`)).toBe('1');
    expect(testLocation()).toBe('/');
  });
});

describe('connected accounts', () => {
  it('shows the accounts panel above the step', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    mockEndpoint(accountsEndpoints.list, accountList([buildConnectedAccount()]));
    renderApp('/');
    const panel = await screen.findByRole('region', { name: 'Connected Reddit accounts' });
    expect(await within(panel).findByText('u/demo_founder')).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'Product Information' });
    expect(panel.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('back from Reddit: selects the project, says the account is connected and clears the address', async () => {
    setup({ projects: [project(P1, 'Alpha'), project(P2, 'Beta')] });
    const accounts = mockEndpoint(
      accountsEndpoints.list,
      accountList([buildConnectedAccount({ project_id: P2, reddit_username: 'demo_founder' })]),
    );
    renderApp(`/?auth=success&username=demo_founder&project_id=${P2}&keep=1`);
    expect(await screen.findByText('Reddit account u/demo_founder connected')).toBeTruthy();
    expect(accounts.calls.some((c) => c.params.projectId === P2)).toBe(true);
    expect((await screen.findByTestId('current-project-name')).textContent).toBe('Beta');
    await waitFor(() => expect(testLocation()).toBe('/?keep=1'));
    expect(localStorage.getItem('selectedProjectId')).toBe(P2);
  });

  it('a made-up return link names no account the project does not have', { timeout: 15_000 }, async () => {
    setup({ projects: [project(P1, 'Alpha'), project(P2, 'Beta')] });
    const accounts = mockEndpoint(
      accountsEndpoints.list,
      accountList([buildConnectedAccount({ project_id: P2, reddit_username: 'demo_founder' })]),
    );
    renderApp(`/?auth=success&username=not_connected&project_id=${P2}`);
    await waitFor(() => expect(testLocation()).toBe('/'));
    const panel = await screen.findByRole('region', { name: 'Connected Reddit accounts' });
    expect(await within(panel).findByText('u/demo_founder')).toBeTruthy();
    // Given time to say anything, it says nothing of a connection.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/not_connected/)).toBeNull();
    expect(screen.queryByText(/Reddit account .*connected/)).toBeNull();
    // The name was looked for in the project's list, beside the panel's own reading of it.
    expect(accounts.calls.filter((c) => c.params.projectId === P2).length).toBeGreaterThanOrEqual(2);
  });

  it(
    "back from Reddit when the project's accounts cannot be read: says connected without the unchecked name",
    { timeout: 15_000 },
    async () => {
      setup({ projects: [project(P1, 'Alpha')] });
      mockEndpoint(accountsEndpoints.list, errorReply(503, 'Database unavailable', 'unavailable'));
      renderApp(`/?auth=success&username=someone_else&project_id=${P1}`);
      expect(await screen.findByText('Reddit account connected')).toBeTruthy();
      expect(screen.queryByText(/someone_else/)).toBeNull();
      await waitFor(() => expect(testLocation()).toBe('/'));
    },
  );

  it('back from Reddit with an error: says why and clears the address', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    renderApp('/?auth=error&message=Access+was+denied+on+Reddit.');
    expect(
      await screen.findByText('Reddit authentication failed: Access was denied on Reddit.'),
    ).toBeTruthy();
    await waitFor(() => expect(testLocation()).toBe('/'));
    expect(screen.getAllByText(/Reddit authentication failed/)).toHaveLength(1);
  });

  it('back from Reddit with a message the server does not send: shows none of its words', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    renderApp('/?auth=error&message=Your+account+is+locked.+Call+support+at+example.com');
    expect(await screen.findByText('Reddit authentication failed: Unknown error')).toBeTruthy();
    expect(screen.queryByText(/example\.com/)).toBeNull();
    await waitFor(() => expect(testLocation()).toBe('/'));
  });

  it('back from Reddit with a reason that names an account: shows it', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    const reason = connectedElsewhereDetail('demo_founder');
    renderApp(`/?auth=error&message=${encodeURIComponent(reason)}`);
    expect(await screen.findByText(`Reddit authentication failed: ${reason}`)).toBeTruthy();
  });
});

describe('agent running autonomously', () => {
  it('dims and disables the accounts and the steps under the overlay; step 5 and the sidebar stay usable', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    mockAgentAtRest(runningAgentSettings({ project_id: P1 }));
    const toggle = mockEndpoint(agentEndpoints.toggleMode, {
      mode: 'assistant',
      message: 'Assistant mode: the agent stopped.',
      sends_cancelled: 0,
      settings: buildAgentSettings({ project_id: P1 }),
    });
    mockEndpoint(agentEndpoints.status, buildAgentStatus({ settings: runningAgentSettings() }));
    mockEndpoint(agentEndpoints.activityLogs, { items: [], total: 0, limit: 20, offset: 0 });
    mockEndpoint(statisticsEndpoints.monthly, errorReply(500, 'Internal server error', 'internal'));
    renderApp('/');
    const overlay = await screen.findByRole('region', { name: 'Agent is running autonomously' });
    const form = await screen.findByRole('form', { hidden: true, name: 'Product Information' });
    expect(form.closest('[inert]')).not.toBeNull();
    const accounts = await screen.findByRole('region', { hidden: true, name: 'Connected Reddit accounts' });
    expect(accounts.closest('[inert]')).not.toBeNull();
    expect(overlay.closest('[inert]')).toBeNull();

    const nav = screen.getByRole('navigation', { name: 'Workflow steps' });
    await userEvent.click(within(nav).getByRole('button', { name: /Agent Activity/ }));
    const heading = await screen.findByRole('heading', { name: 'Agent Activity Logs' });
    expect(heading.closest('[inert]')).toBeNull();

    const stillCovering = screen.getByRole('region', { name: 'Agent is running autonomously' });
    await userEvent.click(within(stillCovering).getByRole('button', { name: 'Stop Agent' }));
    await waitFor(() => expect(toggle.calls[0]?.body).toEqual({ mode: 'assistant' }));
  });

  it('leaves the accounts uncovered when the agent paused for signed-out accounts: Re-authenticate is reachable', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    const agent = mockAgentAtRest(
      runningAgentSettings({
        project_id: P1,
        is_active: false,
        next_run_at: null,
        paused_reason:
          'Paused: u/demo_founder needs to be re-authenticated (Auth Required) before it can send DMs. ' +
          'Re-authenticate it in the accounts panel, then complete learning again to restart the agent.',
      }),
    );
    mockEndpoint(
      accountsEndpoints.list,
      accountList([
        buildConnectedAccount({
          project_id: P1,
          auth_status: 'expired',
          capacity: { tokens_expired: true, can_send_now: false },
        }),
      ]),
    );
    renderApp('/');
    const accounts = await screen.findByRole('region', { name: 'Connected Reddit accounts' });
    // The overlay decides from the agent's settings: once they are read, nothing covers the accounts.
    await waitFor(() => expect(agent.settings.calls.length).toBeGreaterThan(0));
    await act(async () => {});
    const reauthenticate = await within(accounts).findByRole('button', { name: 'Re-authenticate' });
    expect(reauthenticate.closest('[inert]')).toBeNull();
    expect(reauthenticate.hasAttribute('disabled')).toBe(false);
    expect(screen.queryByRole('region', { name: 'Agent is running autonomously' })).toBeNull();
  });

  it('reads what lies under it again each time a run starts or ends, and only then', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      setup({ projects: [project(P1, 'Alpha')] });
      const server = { current: runningAgentSettings({ project_id: P1, last_run_at: null }) };
      mockEndpoint(agentEndpoints.getSettings, () => server.current);
      const accounts = mockEndpoint(accountsEndpoints.list, accountList([]));
      renderApp('/');
      await screen.findByRole('region', { name: 'Agent is running autonomously' });
      await screen.findByRole('region', { hidden: true, name: 'Connected Reddit accounts' });
      await advance();
      const reads = accounts.calls.length;
      expect(reads).toBeGreaterThan(0);

      // The schedule read again, no run since: nothing else is.
      await advance(AGENT_REFRESH_MS);
      expect(accounts.calls).toHaveLength(reads);

      // A run began, then ended: what the accounts can still send today is read again each time.
      server.current = { ...server.current, is_running: true };
      await advance(AGENT_REFRESH_MS);
      expect(accounts.calls).toHaveLength(reads + 1);
      server.current = runningAgentSettings({
        project_id: P1,
        next_run_at: '2026-11-27T14:00:07.000Z',
        last_run_at: '2026-11-27T12:00:07.000Z',
      });
      await advance(AGENT_REFRESH_MS);
      expect(accounts.calls).toHaveLength(reads + 2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers Restart Learning beside Stop Agent: after a confirmation the agent learns again and the page is uncovered and read again', async () => {
    setup({ projects: [project(P1, 'Alpha')] });
    const server = { current: runningAgentSettings({ project_id: P1 }) };
    mockEndpoint(agentEndpoints.getSettings, () => server.current);
    const restart = mockEndpoint(agentEndpoints.restart, () => {
      server.current = buildAgentSettings({ project_id: P1, mode: 'agent' });
      return {
        message: 'Patterns cleared. Edit and save at least 3 DMs, then complete learning again.',
        settings: server.current,
      };
    });
    const accounts = mockEndpoint(accountsEndpoints.list, accountList([]));
    renderApp('/');
    const overlay = await screen.findByRole('region', { name: 'Agent is running autonomously' });
    await screen.findByRole('region', { hidden: true, name: 'Connected Reddit accounts' });
    await userEvent.click(within(overlay).getByRole('button', { name: 'Restart Learning' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restart learning?' });
    expect(restart.calls).toHaveLength(0);
    const reads = accounts.calls.length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restart Learning' }));
    await waitFor(() => expect(restart.calls).toHaveLength(1));
    expect(await screen.findByText(/Patterns cleared/)).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Agent is running autonomously' })).toBeNull(),
    );
    expect(screen.getByRole('form', { name: 'Product Information' }).closest('[inert]')).toBeNull();
    // The agent's queued DMs went back to the unsent ones: what the accounts can still send is read again.
    await waitFor(() => expect(accounts.calls.length).toBeGreaterThan(reads));
  });
});

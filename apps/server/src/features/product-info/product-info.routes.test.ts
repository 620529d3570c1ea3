import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRODUCT_INFO_CHANGED, PRODUCT_INFO_CHANGED_DETAIL } from '@threadreach/contract';
import { AiError } from '../../ai/ai.provider';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('product info (step 1)', () => {
  it('starts empty, saves with POST and PUT, and reads back what was saved', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}/product-info`;
    const empty = await t.app.inject({ url, headers: project.owner.auth });
    expect(empty.json()).toMatchObject({ project_id: project.id, product_description: '', updated_at: null });

    const saved = await t.app.inject({
      method: 'POST',
      url,
      headers: project.owner.auth,
      payload: { ...validProductInfo(), regenerate_keywords: true },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      regenerate_keywords: true,
      keywords_generated: true,
      keywords_error: null,
    });

    const put = await t.app.inject({
      method: 'PUT',
      url,
      headers: project.owner.auth,
      payload: validProductInfo({ call_to_action: 'Book a demo.' }),
    });
    expect(put.json()).toMatchObject({
      regenerate_keywords: false,
      product_info: { call_to_action: 'Book a demo.' },
    });

    const read = await t.app.inject({ url, headers: project.owner.auth });
    expect(read.json()).toMatchObject({ ...validProductInfo({ call_to_action: 'Book a demo.' }) });
    expect(read.json().updated_at).not.toBeNull();
  });

  it('POST with regeneration writes keywords for step 2; PUT and regenerate_keywords false never do', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}/product-info`;
    const keywords = async () =>
      (
        await t.app.inject({ url: `/api/v1/projects/${project.id}/keywords`, headers: project.owner.auth })
      ).json().items;
    const spy = vi.spyOn(t.ctx.ai, 'generateKeywords');
    try {
      await t.app.inject({ method: 'PUT', url, headers: project.owner.auth, payload: validProductInfo() });
      const kept = await t.app.inject({
        method: 'POST',
        url,
        headers: project.owner.auth,
        payload: { ...validProductInfo(), regenerate_keywords: false },
      });
      expect(kept.json()).toMatchObject({ regenerate_keywords: false, keywords_generated: false });
      expect(spy).not.toHaveBeenCalled();
      expect(await keywords()).toEqual([]);

      await t.app.inject({ method: 'POST', url, headers: project.owner.auth, payload: validProductInfo() });
      expect(spy).toHaveBeenCalledTimes(1);
      const generated = await keywords();
      expect(generated.map((k: { type: string }) => k.type)).toEqual(
        expect.arrayContaining(['product', 'icp']),
      );

      await t.app.inject({
        method: 'PUT',
        url,
        headers: project.owner.auth,
        payload: validProductInfo({ call_to_action: 'Book a demo.' }),
      });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(await keywords()).toEqual(generated);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps step 1 saved when keyword generation fails, and says why', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}/product-info`;
    const spy = vi
      .spyOn(t.ctx.ai, 'generateKeywords')
      .mockRejectedValueOnce(new AiError('timeout', 'The language model took too long'));
    try {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: project.owner.auth,
        payload: validProductInfo(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        product_info: validProductInfo(),
        regenerate_keywords: true,
        keywords_generated: false,
        keywords_error: 'Keyword generation failed: The language model took too long',
      });
    } finally {
      spy.mockRestore();
    }
    expect((await t.app.inject({ url, headers: project.owner.auth })).json()).toMatchObject(
      validProductInfo(),
    );
    // Step 2 can retry.
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/generate-keywords`,
      headers: project.owner.auth,
    });
    expect(retry.json().generated).toBe(true);
  });

  it('POST defaults regenerate_keywords to true', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/product-info`,
      headers: project.owner.auth,
      payload: validProductInfo(),
    });
    expect(res.json().regenerate_keywords).toBe(true);
  });

  it.each([
    ['product_description', 'x'.repeat(49), 'at least 50'],
    ['product_description', 'x'.repeat(1001), 'at most 1000'],
    ['ideal_client_profile', 'x'.repeat(29), 'at least 30'],
    ['ideal_client_profile', 'x'.repeat(1001), 'at most 1000'],
    ['call_to_action', '', 'Call to action is required'],
    ['call_to_action', 'x'.repeat(201), 'at most 200'],
    ['writing_style', '  ', 'Writing style is required'],
    ['writing_style', 'x'.repeat(351), 'at most 350'],
  ])('refuses %s of the wrong length, keeping what was saved', async (field, value, message) => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}/product-info`;
    await t.app.inject({ method: 'PUT', url, headers: project.owner.auth, payload: validProductInfo() });
    for (const method of ['POST', 'PUT'] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: project.owner.auth,
        payload: { ...validProductInfo(), [field]: value },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_error');
      expect(res.json().detail).toContain(message);
    }
    const read = await t.app.inject({ url, headers: project.owner.auth });
    expect(read.json()).toMatchObject(validProductInfo());
  });

  it('refuses a save made from a version saved over since (409), keeping the later save', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}/product-info`;
    const save = (method: 'POST' | 'PUT', body: object) =>
      t.app.inject({ method, url, headers: project.owner.auth, payload: body });
    const read = async () => (await t.app.inject({ url, headers: project.owner.auth })).json();

    const first = await save('PUT', { ...validProductInfo(), updated_at: null });
    expect(first.statusCode).toBe(200);
    const opened = first.json().product_info.updated_at as string;
    // A second first save (another tab that opened the empty form) finds the first one there.
    const secondFirst = await save('PUT', {
      ...validProductInfo({ call_to_action: 'Lost?' }),
      updated_at: null,
    });
    expect(secondFirst.statusCode).toBe(409);

    // Two tabs opened the same version; one saves, then the other.
    const tabB = await save('PUT', {
      ...validProductInfo({ call_to_action: 'From tab B.' }),
      updated_at: opened,
    });
    expect(tabB.statusCode).toBe(200);
    const bVersion = tabB.json().product_info.updated_at as string;
    expect(bVersion).not.toBe(opened);
    for (const method of ['PUT', 'POST'] as const) {
      const tabA = await save(method, {
        ...validProductInfo({ call_to_action: 'From tab A.' }),
        updated_at: opened,
      });
      expect(tabA.statusCode).toBe(409);
      expect(tabA.json()).toEqual({ detail: PRODUCT_INFO_CHANGED_DETAIL, code: PRODUCT_INFO_CHANGED });
    }
    expect(await read()).toMatchObject({ call_to_action: 'From tab B.', updated_at: bVersion });

    // Saved from the version read again, it goes through.
    const again = await save('POST', {
      ...validProductInfo({ call_to_action: 'From tab A.' }),
      updated_at: bVersion,
      regenerate_keywords: false,
    });
    expect(again.statusCode).toBe(200);
    expect(await read()).toMatchObject({ call_to_action: 'From tab A.' });
  });

  it('saves without a version unchecked, and refuses a version that is no date-time', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}/product-info`;
    await t.app.inject({ method: 'PUT', url, headers: project.owner.auth, payload: validProductInfo() });
    const unchecked = await t.app.inject({
      method: 'PUT',
      url,
      headers: project.owner.auth,
      payload: validProductInfo({ call_to_action: 'Book a demo.' }),
    });
    expect(unchecked.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'PUT',
      url,
      headers: project.owner.auth,
      payload: { ...validProductInfo(), updated_at: 'yesterday' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_error');
  });

  it('accepts exactly the minimum and maximum lengths', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}/product-info`,
      headers: project.owner.auth,
      payload: {
        product_description: 'd'.repeat(50),
        ideal_client_profile: 'i'.repeat(1000),
        call_to_action: 'c'.repeat(200),
        writing_style: 'w'.repeat(350),
      },
    });
    expect(res.statusCode).toBe(200);
  });
});

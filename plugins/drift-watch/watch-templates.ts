// Watch templates: a named watch config; running one creates a watch from it with overrides,
// checked as a create body is.
import { Value } from 'typebox/value';
import { newId } from '../../core/crypto.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { CreateWatch, templateView, type CreateTemplate, type RunTemplate, type watchView } from './schemas.ts';
import type { WatchStore } from './store.ts';

/** Creates a watch as POST /drift-watch does (the watches module's insertWatch). */
type InsertWatch = (orgId: string, userId: string | null, input: CreateWatch) => Promise<ReturnType<typeof watchView>>;

export function createWatchTemplates(store: WatchStore, insertWatch: InsertWatch) {
  return {
    listTemplates: async (orgId: string) => ({ templates: (await store.listTemplates(orgId)).map(templateView) }),
    async createTemplate(orgId: string, input: CreateTemplate) {
      const tpl = { _id: newId(), orgId, name: input.name, description: input.description ?? null, config: input.config as Record<string, unknown>, createdAt: new Date() };
      await store.insertTemplate(tpl);
      return templateView(tpl);
    },
    async removeTemplate(orgId: string, id: string) {
      if (!(await store.removeTemplate(orgId, id))) throw notFound('Template');
    },
    /** A new watch from the template's config with `overrides` over it, checked as a create body is. */
    async runTemplate(orgId: string, userId: string | null, id: string, input: RunTemplate) {
      const tpl = await store.template(orgId, id);
      if (!tpl) throw notFound('Template');
      const body = Value.Default(CreateWatch, { ...tpl.config, ...(input.overrides ?? {}), name: input.name, repositoryId: input.repositoryId }) as CreateWatch;
      if (!Value.Check(CreateWatch, body)) {
        const errors = [...Value.Errors(CreateWatch, body)].map((e) => ({ path: e.instancePath || '/', message: e.message }));
        throw new AppError('validation_failed', { message: `The template's config with the overrides is not a valid watch: ${errors[0]?.path} ${errors[0]?.message}`, details: errors });
      }
      return { ...(await insertWatch(orgId, userId, body)), audit: { templateId: id } };
    },
  };
}

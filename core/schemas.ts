// Schemas every plugin shares: ids, pagination, the error shape, the envelope.
import { Type, type TSchema, type Static } from 'typebox';

export const Id = Type.String({ pattern: '^[a-f0-9]{24}$', description: 'Record id (24 lowercase hex characters)' });
export const IdParams = Type.Object({ id: Id });
/** A date-time on the wire; handlers may return a Date (serialized as ISO 8601). */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const MAX_PAGE_SIZE = 100;
/** Highest page number a list accepts: 10 million records at the largest page size. */
export const MAX_PAGE = 100_000;
/** page and limit, for lists whose query has more fields. */
export const pageFields = (defaultLimit = 20, maxLimit = MAX_PAGE_SIZE) => ({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
});
export const PageQuery = (defaultLimit = 20, maxLimit = MAX_PAGE_SIZE) => Type.Object(pageFields(defaultLimit, maxLimit));
export type Page = { page: number; limit: number };

export const ErrorBody = Type.Object({
  success: Type.Literal(false),
  error: Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Unknown()) }),
}, { $id: 'ErrorBody' });
export type ErrorBody = Static<typeof ErrorBody>;

/** The SCIM error schema (RFC 7644 §3.12), for routes whose manifest says errorFormat 'scim'. */
export const ScimErrorBody = Type.Object({
  schemas: Type.Array(Type.String()),
  status: Type.String(),
  scimType: Type.Optional(Type.String()),
  detail: Type.String(),
}, { $id: 'ScimErrorBody' });

export const Envelope = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });
export const Message = Type.Object({ message: Type.String() });

/** skip/limit for a page, and the page count for a total. */
export const pageWindow = ({ page, limit }: Page) => ({ skip: (page - 1) * limit, limit });
export const pageCount = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/**
 * The one shape of a paged list (docs/api-conventions.md "Paged lists"). Envelope lists:
 * `{success: true, data: [...], pagination: {page, limit, total, pages}}` (PagedList, pageOf);
 * lists with named keys (SPEC: `watches`, `total`, `page`, `pages`) carry the same counts
 * beside their key, `pages` from pageCount.
 * `pages` is at least 1 (an empty list is one empty page).
 */
export const Pagination = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() });
export type Pagination = Static<typeof Pagination>;
export const PagedList = <T extends TSchema>(item: T) => Type.Object({ success: Type.Literal(true), data: Type.Array(item), pagination: Pagination });
/** An envelope list's page: its rows, and where they sit in the whole. */
export const pageOf = <T>(data: T[], page: Page, total: number) => ({
  success: true as const, data, pagination: { page: page.page, limit: page.limit, total, pages: pageCount(total, page.limit) },
});
/** A runner label, as runners carry them and repository configs ask for them. */
export const RunnerLabel = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:/-]+$' });
/** At most this many labels on a runner or a config. */
export const MAX_RUNNER_LABELS = 32;

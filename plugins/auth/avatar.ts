// Avatar upload: one image (PNG, JPEG, GIF or WebP, checked by its bytes, not its name or
// declared type), at most 2 MiB, served back from GET /api/auth/avatars/:userId.
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { Binary } from 'mongodb';
import type { AppContext } from '../../core/context.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { AuthStore } from './store.ts';

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export function createAvatars(ctx: AppContext, store: AuthStore, update: (userId: string, set: { avatar: string }) => Promise<void>) {
  return {
    async upload(userId: string, req: FastifyRequest) {
      if (!req.isMultipart()) throw new AppError('unsupported_media_type', { message: 'Upload the image as multipart/form-data' });
      const file = await req.file();
      if (!file) throw badRequest('No image file in the upload');
      const data = await file.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', { message: 'Avatar images are limited to 2 MiB' });
        throw err;
      });
      const type = await fileTypeFromBuffer(data);
      if (!type || !AVATAR_TYPES.includes(type.mime)) throw badRequest('Avatar must be a PNG, JPEG, GIF or WebP image', { allowed: AVATAR_TYPES });
      const now = new Date();
      await store.saveAvatar(userId, type.mime, new Binary(data), now);
      const avatar = `${ctx.config.publicUrl}/api/auth/avatars/${userId}?v=${now.getTime()}`;
      await update(userId, { avatar });
      return { avatar, contentType: type.mime, size: data.length };
    },
    async get(userId: string) {
      const row = await store.avatar(userId);
      if (!row) throw notFound('Avatar');
      return { contentType: row.contentType, data: Buffer.from(row.data.buffer) };
    },
  };
}

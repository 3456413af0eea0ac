// Response serializers compiled on a route's first answer instead of at boot, for the test
// suite only (BuildOptions.lazySchemas): compiling every route's validators and serializers is
// about 0.6 s of CPU per app (measured), and the suite builds hundreds of apps that each call a few routes.
// The service compiles eagerly, so a schema that cannot compile stops it at boot; so does the
// suite's test/core/schema-compile.test.ts, which builds one app the service's way.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

/** Fastify's own serializer factory, each route's serializer built when first used. */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= build(route))(data);
  };
};

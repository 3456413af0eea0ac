// aws_apigatewayv2_api and aws_apigatewayv2_domain_name: one paged GetApis / GetDomainNames per
// region answers every instance of the scan; aws_apigatewayv2_api_mapping: one GetApiMappings
// per custom domain.
import {
  GetApiMappings$, GetApiMappingsCommand, GetApis$, GetApisCommand, GetDomainNames$, GetDomainNamesCommand,
  type Api, type ApiMapping, type DomainName,
} from '@aws-sdk/client-apigatewayv2';
import type { LiveAttributes } from '../../../types.ts';
import type { AwsContext } from '../context.ts';
import { answer, byRegion, once, str, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags } from '../replay/kit.ts';
import { listAll, stringMap, strMap, type Page } from './kit.ts';


/** A reader over one region-wide list: each instance found in it by `key` of its state. */
function regionListReader<T>(o: {
  key: string; list: (ctx: AwsContext, region: string) => Promise<T[] | undefined>; idOf: (t: T) => string | undefined;
  stateId: (a: Record<string, unknown>) => string; live: (t: T) => LiveAttributes; answers: TypeReader['answers'];
}): TypeReader {
  return {
    spec: {},
    answers: o.answers,
    async read(items, ctx) {
      const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
      for (const [region, group] of byRegion(items)) {
        const all = await once(ctx, `apigatewayv2:${o.key}:${region}`, () => o.list(ctx, region));
        const byId = new Map((all ?? []).map((t) => [o.idOf(t), t]));
        for (const { item, index } of group) {
          const found = byId.get(o.stateId(item.instance.attributes));
          out[index] = found ? o.live(found) : null;
        }
      }
      return out;
    },
  };
}

const cors = (c: Api['CorsConfiguration']) => (c ? [{
  allow_credentials: c.AllowCredentials ?? false, allow_headers: c.AllowHeaders ?? [], allow_methods: c.AllowMethods ?? [],
  allow_origins: c.AllowOrigins ?? [], expose_headers: c.ExposeHeaders ?? [], max_age: c.MaxAge ?? 0,
}] : []);

function fakeApi(a: Record<string, unknown>): Api {
  const c = block(a.cors_configuration);
  return {
    ApiId: str(a.id), Name: opt(a.name), ProtocolType: opt(a.protocol_type) as Api['ProtocolType'], Description: opt(a.description),
    RouteSelectionExpression: opt(a.route_selection_expression), ApiKeySelectionExpression: opt(a.api_key_selection_expression),
    DisableExecuteApiEndpoint: bool(a.disable_execute_api_endpoint), Version: opt(a.version), Tags: strMap(stateTags(a)), ApiEndpoint: opt(a.api_endpoint),
    IpAddressType: opt(a.ip_address_type) as Api['IpAddressType'],
    CorsConfiguration: Object.keys(c).length ? {
      AllowCredentials: bool(c.allow_credentials), AllowHeaders: list(c.allow_headers), AllowMethods: list(c.allow_methods),
      AllowOrigins: list(c.allow_origins), ExposeHeaders: list(c.expose_headers), MaxAge: num(c.max_age),
    } : undefined,
  };
}

export const apiReader = regionListReader<Api>({
  key: 'apis',
  list: (ctx, region) => listAll(ctx, (NextToken) => ctx.send<Page<Api>>(ctx.apigatewayv2(region), new GetApisCommand({ NextToken }), 'apigateway:GET')),
  idOf: (a) => a.ApiId, stateId: (a) => str(a.id),
  live: (a) => ({
    name: a.Name, protocol_type: a.ProtocolType, description: a.Description ?? '', route_selection_expression: a.RouteSelectionExpression ?? '',
    api_key_selection_expression: a.ApiKeySelectionExpression ?? '', disable_execute_api_endpoint: a.DisableExecuteApiEndpoint ?? false,
    cors_configuration: cors(a.CorsConfiguration), version: a.Version ?? '', ip_address_type: a.IpAddressType, tags: stringMap(a.Tags), tags_all: stringMap(a.Tags),
  }),
  answers: [answer('apigatewayv2', GetApis$, (_input, world) => ({ Items: attrsOf(world, 'aws_apigatewayv2_api').map(fakeApi) }))],
});

const domainOf = (a: Record<string, unknown>) => str(a.domain_name || a.id);

function fakeDomain(a: Record<string, unknown>): DomainName {
  const c = block(a.domain_name_configuration);
  const mtls = block(a.mutual_tls_authentication);
  return {
    DomainName: domainOf(a), Tags: strMap(stateTags(a)),
    DomainNameConfigurations: [{
      CertificateArn: opt(c.certificate_arn), EndpointType: opt(c.endpoint_type) as 'REGIONAL', SecurityPolicy: opt(c.security_policy) as 'TLS_1_2',
      HostedZoneId: opt(c.hosted_zone_id), ApiGatewayDomainName: opt(c.target_domain_name), OwnershipVerificationCertificateArn: opt(c.ownership_verification_certificate_arn),
    }],
    MutualTlsAuthentication: opt(mtls.truststore_uri) ? { TruststoreUri: str(mtls.truststore_uri), TruststoreVersion: opt(mtls.truststore_version) } : undefined,
  };
}

export const domainNameReader = regionListReader<DomainName>({
  key: 'domains',
  list: (ctx, region) => listAll(ctx, (NextToken) => ctx.send<Page<DomainName>>(ctx.apigatewayv2(region), new GetDomainNamesCommand({ NextToken }), 'apigateway:GET')),
  idOf: (d) => d.DomainName, stateId: domainOf,
  live: (d) => {
    const c = d.DomainNameConfigurations?.[0];
    return {
      domain_name: d.DomainName,
      domain_name_configuration: c ? [{
        certificate_arn: c.CertificateArn ?? '', endpoint_type: c.EndpointType ?? '', security_policy: c.SecurityPolicy ?? '',
        ownership_verification_certificate_arn: c.OwnershipVerificationCertificateArn ?? '',
      }] : [],
      mutual_tls_authentication: d.MutualTlsAuthentication?.TruststoreUri
        ? [{ truststore_uri: d.MutualTlsAuthentication.TruststoreUri, truststore_version: d.MutualTlsAuthentication.TruststoreVersion ?? '' }] : [],
      tags: stringMap(d.Tags), tags_all: stringMap(d.Tags),
    };
  },
  answers: [answer('apigatewayv2', GetDomainNames$, (_input, world) => ({ Items: attrsOf(world, 'aws_apigatewayv2_domain_name').map(fakeDomain) }))],
});

export const apiMappingReader: TypeReader = {
  spec: {},
  answers: [answer<{ DomainName: string }>('apigatewayv2', GetApiMappings$, (input, world) => {
    const mappings = attrsOf(world, 'aws_apigatewayv2_api_mapping').filter((a) => str(a.domain_name) === input.DomainName);
    if (!mappings.length && !attrsOf(world, 'aws_apigatewayv2_domain_name').some((a) => domainOf(a) === input.DomainName)) {
      throw new FakeError('NotFoundException', `Unable to find domain name ${input.DomainName}`, 404);
    }
    return { Items: mappings.map((a): ApiMapping => ({ ApiMappingId: str(a.id), ApiId: opt(a.api_id), Stage: opt(a.stage), ApiMappingKey: opt(a.api_mapping_key) })) };
  })],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      await Promise.all(group.map(async ({ item, index }) => {
        const domain = str(item.instance.attributes.domain_name);
        const all = await once(ctx, `apigatewayv2:mappings:${region}:${domain}`, () =>
          listAll(ctx, (NextToken) => ctx.send<Page<ApiMapping>>(ctx.apigatewayv2(region), new GetApiMappingsCommand({ DomainName: domain, NextToken }), 'apigateway:GET')));
        const m = all?.find((x) => x.ApiMappingId === str(item.instance.attributes.id));
        out[index] = m ? { api_id: m.ApiId, domain_name: domain, stage: m.Stage, api_mapping_key: m.ApiMappingKey ?? '' } : null;
      }));
    }
    return out;
  },
};

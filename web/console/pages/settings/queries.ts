// The settings pages' data and actions, one resource each (api-guide "Users and authentication", "Places", "Tour
// services and scheduling configs", "Events and webhooks"). Answers carrying a secret (a webhook secret, an API key
// token) are never written to the query cache: their mutations keep nothing once the page lets them go (gcTime 0).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';
import type { paths } from '../../../../clients/typescript/src/index.ts';

export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['Delivery'];
export type ApiKey = Schemas['ApiKey'];
export type Service = Schemas['Service'];
export type Place = Schemas['Place'];
export type PlaceCreate = Schemas['PlaceCreate'];
export type EventType = Schemas['EventType'];
export type FailureOutcome = Schemas['FailureOutcome'];
export type ProofKind = Schemas['DeliveryProofKind'];
export type UserInput = paths['/api/users']['post']['requestBody']['content']['application/json']['user'];
export type ServiceCreate = paths['/api/admin/hailing/services']['post']['requestBody']['content']['application/json']['service'];
export type ServiceUpdate = paths['/api/admin/hailing/services/{id}']['put']['requestBody']['content']['application/json']['service'];
export type AreaInput = paths['/api/admin/service_areas']['post']['requestBody']['content']['application/json']['service_area'];
export type OrganizationInput = paths['/api/organizations']['post']['requestBody']['content']['application/json']['organization'];

const page = (cursor: string | undefined) => ({ limit: 50, ...(cursor ? { cursor } : {}) });
const SECRET = { gcTime: 0 } as const;

/** After a write, the resource's lists (and the shared reference lists in web/api) are fetched again. */
function useRefresh(...keys: string[]) {
  const queryClient = useQueryClient();
  return () => Promise.all(keys.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
}

// Webhooks

export function useWebhooks(cursor: string | undefined) {
  return useQuery({
    queryKey: ['webhooks', 'list', cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/admin/webhooks', { params: { query: page(cursor) } })),
  });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: ['webhooks', id], queryFn: async () => (await call(api.GET('/api/admin/webhooks/{id}', { params: { path: { id } } }))).webhook });
}

export function useDeliveries(id: string, cursor: string | undefined) {
  return useQuery({
    queryKey: ['webhooks', id, 'deliveries', cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/admin/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
    // While a delivery is still on its way, its outcome is fetched again every few seconds.
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? 3000 : false),
  });
}

export function useCreateWebhook() {
  const refresh = useRefresh('webhooks');
  return useMutation({
    ...SECRET,
    mutationFn: (webhook: { url: string; events: string[]; description?: string }) => call(api.POST('/api/admin/webhooks', { body: { webhook } })),
    onSuccess: () => refresh(),
  });
}

export function useRotateSecret(id: string) {
  return useMutation({ ...SECRET, mutationFn: () => call(api.POST('/api/admin/webhooks/{id}/rotate_secret', { params: { path: { id } } })) });
}

export function useUpdateWebhook(id: string) {
  const refresh = useRefresh('webhooks');
  return useMutation({
    mutationFn: (webhook: { active: boolean }) => call(api.PATCH('/api/admin/webhooks/{id}', { params: { path: { id } }, body: { webhook } })),
    onSuccess: () => refresh(),
  });
}

export function useSendTest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/api/admin/webhooks/{id}/test', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', id, 'deliveries'] }),
  });
}

export function useRedeliver(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => call(api.POST('/api/admin/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id, delivery_id: deliveryId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', id, 'deliveries'] }),
  });
}

// Users

export function useUsersPage(cursor: string | undefined) {
  return useQuery({
    queryKey: ['users', 'list', cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/users', { params: { query: page(cursor) } })),
  });
}

/** Every active user, for choosing one (an API key's owner); reference-sized lists. */
export function useAllUsers() {
  return useQuery({
    queryKey: ['users', 'all'],
    queryFn: async () => (await call(api.GET('/api/users', { params: { query: { limit: 100 } } }))).users.filter((u) => !u.deactivated_at),
  });
}

export function useCreateUser() {
  const refresh = useRefresh('users');
  return useMutation({ mutationFn: (user: UserInput) => call(api.POST('/api/users', { body: { user } })), onSuccess: () => refresh() });
}

/** E-mails the user a one-time link to set its password (decision 1602). */
export function useInviteUser() {
  return useMutation({ mutationFn: (id: string) => call(api.POST('/api/users/{id}/invitation', { params: { path: { id } } })) });
}

export function useDeactivateUser() {
  const refresh = useRefresh('users');
  return useMutation({ mutationFn: (id: string) => call(api.DELETE('/api/users/{id}', { params: { path: { id } } })), onSuccess: () => refresh() });
}

// Organizations

export function useSaveOrganization() {
  const refresh = useRefresh('organizations');
  return useMutation({
    mutationFn: ({ id, organization }: { id?: string; organization: OrganizationInput }) =>
      id ? call(api.PATCH('/api/organizations/{id}', { params: { path: { id } }, body: { organization } })) : call(api.POST('/api/organizations', { body: { organization } })),
    onSuccess: () => refresh(),
  });
}

// API keys

export function useApiKeys(cursor: string | undefined) {
  return useQuery({
    queryKey: ['api_keys', 'list', cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/admin/api_keys', { params: { query: page(cursor) } })),
  });
}

export function useCreateApiKey() {
  const refresh = useRefresh('api_keys');
  return useMutation({
    ...SECRET,
    mutationFn: (apiKey: { name: string; user_id: string }) => call(api.POST('/api/admin/api_keys', { body: { api_key: apiKey } })),
    onSuccess: () => refresh(),
  });
}

export function useRevokeApiKey() {
  const refresh = useRefresh('api_keys');
  return useMutation({ mutationFn: (id: string) => call(api.DELETE('/api/admin/api_keys/{id}', { params: { path: { id } } })), onSuccess: () => refresh() });
}

// Services

export function useServices() {
  return useQuery({ queryKey: ['services', 'list'], queryFn: async () => (await call(api.GET('/api/admin/hailing/services', { params: { query: { limit: 100 } } }))).services });
}

export function useUpdateService() {
  const refresh = useRefresh('services');
  return useMutation({
    mutationFn: ({ id, service }: { id: string; service: ServiceUpdate }) => call(api.PUT('/api/admin/hailing/services/{id}', { params: { path: { id } }, body: { service } })),
    onSuccess: () => refresh(),
  });
}

export function useCreateService() {
  const refresh = useRefresh('services');
  return useMutation({ mutationFn: (service: ServiceCreate) => call(api.POST('/api/admin/hailing/services', { body: { service } })), onSuccess: () => refresh() });
}

/** Scheduling configs a service may follow (admins; a reference-sized list). */
export function useSchedulingConfigs(enabled: boolean) {
  return useQuery({
    queryKey: ['scheduling_configs'],
    enabled,
    queryFn: async () => (await call(api.GET('/api/admin/hailing/scheduling_configs', { params: { query: { limit: 100 } } }))).scheduling_configs,
  });
}

// Places

export function usePlaces(cursor: string | undefined) {
  return useQuery({
    queryKey: ['places', 'list', cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/places', { params: { query: page(cursor) } })),
  });
}

export function useSavePlace() {
  const refresh = useRefresh('places');
  return useMutation({
    mutationFn: ({ id, place }: { id?: string; place: PlaceCreate }) =>
      id ? call(api.PATCH('/api/places/{id}', { params: { path: { id } }, body: { place } })) : call(api.POST('/api/places', { body: { place } })),
    onSuccess: () => refresh(),
  });
}

// Service areas

export function useSaveArea() {
  const refresh = useRefresh('service_areas');
  return useMutation({
    mutationFn: ({ id, area }: { id?: string; area: AreaInput }) =>
      id
        ? call(api.PATCH('/api/admin/service_areas/{id}', { params: { path: { id } }, body: { service_area: area } }))
        : call(api.POST('/api/admin/service_areas', { body: { service_area: area } })),
    onSuccess: () => refresh(),
  });
}

// Recipient e-mails (docs/tracking.md "Templates")

export type RecipientTemplate = Schemas['RecipientTemplate'];
export type TemplateDraft = { subject: string; body: string };
type TemplateKey = { moment: RecipientTemplate['moment']; locale: RecipientTemplate['locale'] };

export function useRecipientTemplates() {
  return useQuery({ queryKey: ['recipient_templates', 'list'], queryFn: async () => (await call(api.GET('/api/admin/recipient_templates'))).recipient_templates });
}

export function useSaveTemplate() {
  const refresh = useRefresh('recipient_templates');
  return useMutation({
    mutationFn: ({ moment, locale, template }: TemplateKey & { template: TemplateDraft }) =>
      call(api.PUT('/api/admin/recipient_templates/{moment}/{locale}', { params: { path: { moment, locale } }, body: { recipient_template: template } })),
    onSuccess: () => refresh(),
  });
}

export function useResetTemplate() {
  const refresh = useRefresh('recipient_templates');
  return useMutation({
    mutationFn: ({ moment, locale }: TemplateKey) => call(api.DELETE('/api/admin/recipient_templates/{moment}/{locale}', { params: { path: { moment, locale } } })),
    onSuccess: () => refresh(),
  });
}

/** The API renders the draft with sample facts; a draft it refuses answers its field errors instead (no retries). */
export function usePreview({ moment, locale }: TemplateKey, draft: TemplateDraft) {
  return useQuery({
    queryKey: ['recipient_templates', 'preview', moment, locale, draft.subject, draft.body],
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: async () =>
      (await call(api.POST('/api/admin/recipient_templates/{moment}/{locale}/preview', { params: { path: { moment, locale } }, body: { recipient_template: draft } }))).preview,
  });
}

// The sender (docs/tracking.md "Sender")

export type Sender = Schemas['Sender'];
export type SenderDraft = { name: string | null; color: string | null; reply_to: string | null; email_from: string | null; sms_sender_id: string | null };

export function useSender() {
  return useQuery({ queryKey: ['sender'], queryFn: async () => (await call(api.GET('/api/admin/sender'))).sender });
}

export function useSaveSender() {
  const refresh = useRefresh('sender');
  return useMutation({ mutationFn: (sender: SenderDraft) => call(api.PATCH('/api/admin/sender', { body: { sender } })), onSuccess: () => refresh() });
}

/** The logo as base64 (the API's shape); null removes it. */
export function useSaveLogo() {
  const refresh = useRefresh('sender');
  return useMutation({
    mutationFn: (image: string | null) => (image === null ? call(api.DELETE('/api/admin/sender/logo')) : call(api.PUT('/api/admin/sender/logo', { body: { logo: { image } } }))),
    onSuccess: () => refresh(),
  });
}

import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import {
  doCreateField, doDeleteField, doRemoveOwnProfileData, doReorderFields, doUpdateField, doUpdateOwnProfileData,
  listFields, type FieldInput,
} from '../actions/profile-fields';
import { profileDataSchema } from './users';

function fieldInput(p: Params): FieldInput {
  return {
    name: p.str('name'),
    hint: p.str('hint'),
    fieldData: p.json('field_data', z.unknown()),
    displayInProfileSummary: p.bool('display_in_profile_summary'),
    required: p.bool('required'),
    editableByUser: p.bool('editable_by_user'),
  };
}

export function profileFieldRoutes(router: Router, services: Services): void {
  router.get(
    '/realm/profile_fields',
    endpoint(async ({ identity }) => ({ custom_fields: await listFields(services.db, identity.realmId) })),
  );
  router.post(
    '/realm/profile_fields',
    endpoint(async ({ p, identity }) => {
      const input = { ...fieldInput(p), fieldType: p.int('field_type') };
      return { id: await doCreateField(services, actorFromIdentity(identity), input) };
    }),
  );
  router.patch(
    '/realm/profile_fields',
    endpoint(async ({ p, identity }) => {
      await doReorderFields(services, actorFromIdentity(identity), p.reqJson('order', z.array(z.number().int())));
    }),
  );
  router.patch(
    '/realm/profile_fields/:field_id',
    endpoint(async ({ p, identity }) => {
      await doUpdateField(services, actorFromIdentity(identity), p.pathInt('field_id'), fieldInput(p));
    }),
  );
  router.delete(
    '/realm/profile_fields/:field_id',
    endpoint(async ({ p, identity }) => {
      await doDeleteField(services, actorFromIdentity(identity), p.pathInt('field_id'));
    }),
  );
  router.patch(
    '/users/me/profile_data',
    endpoint(async ({ p, identity }) => {
      await doUpdateOwnProfileData(services, actorFromIdentity(identity), p.reqJson('data', profileDataSchema));
    }),
  );
  router.delete(
    '/users/me/profile_data',
    endpoint(async ({ p, identity }) => {
      await doRemoveOwnProfileData(services, actorFromIdentity(identity), p.reqJson('data', z.array(z.number().int())));
    }),
  );
}

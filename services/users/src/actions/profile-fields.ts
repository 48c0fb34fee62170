import { recordEvent } from '@chat/bus';
import { errors, checkAdmin, checkNotBot, isAdmin, type Actor } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { customProfileFieldObject, profileDataByUser, type ProfileData } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds, usersWhoCanAccess } from '../lib/audience';
import {
  checkFieldData, checkFieldValue, EXTERNAL_ACCOUNTS, FIELD_HINT_MAX, FIELD_NAME_MAX, FIELD_TYPE, FIELD_TYPES,
  MAX_SUMMARY_FIELDS, RENDERED_TYPES, SUMMARY_TYPES_EXCLUDED,
} from '../lib/profile-field-types';
import { renderMarkdown } from '../lib/render';

type Field = Awaited<ReturnType<Tx['customProfileField']['findFirstOrThrow']>>;

export async function listFields(db: Db | Tx, realmId: number) {
  const fields = await db.customProfileField.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  return fields.map(customProfileFieldObject);
}

/** Everyone in the realm learns the new list of fields. */
async function announceFields(tx: Tx, realmId: number) {
  await recordEvent(tx, {
    realmId,
    type: 'custom_profile_fields',
    users: await activeUserIds(tx, realmId),
    event: { type: 'custom_profile_fields', fields: await listFields(tx, realmId) },
  });
}

export interface FieldInput {
  name?: string;
  hint?: string;
  fieldType?: number;
  fieldData?: unknown;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
}

function checkLabel(name: string): string {
  const label = name.trim();
  if (label === '') throw errors.badRequest('Label cannot be blank.');
  if ([...label].length > FIELD_NAME_MAX) throw errors.badRequest(`name is too long (limit: ${FIELD_NAME_MAX} characters)`);
  return label;
}

async function checkSummary(tx: Tx, realmId: number, fieldType: number, exceptId?: number) {
  if (SUMMARY_TYPES_EXCLUDED.includes(fieldType)) {
    throw errors.badRequest('Field type not supported for display in profile summary.');
  }
  const shown = await tx.customProfileField.count({
    where: { realmId, displayInProfileSummary: true, ...(exceptId ? { id: { not: exceptId } } : {}) },
  });
  if (shown >= MAX_SUMMARY_FIELDS) {
    throw errors.badRequest(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
  }
}

async function checkNameFree(tx: Tx, realmId: number, name: string, exceptId?: number) {
  const clash = await tx.customProfileField.findFirst({
    where: { realmId, name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { id: { not: exceptId } } : {}) },
  });
  if (clash) throw errors.badRequest('A field with that label already exists.');
}

export async function doCreateField(services: Services, actor: Actor, input: FieldInput): Promise<number> {
  checkAdmin(actor);
  const fieldType = input.fieldType ?? FIELD_TYPE.SHORT_TEXT;
  if (!FIELD_TYPES.includes(fieldType)) throw errors.badRequest('Invalid field type.');
  const fieldData = checkFieldData(fieldType, input.fieldData ?? {});
  const hint = input.hint ?? '';
  if ([...hint].length > FIELD_HINT_MAX) throw errors.badRequest(`hint is too long (limit: ${FIELD_HINT_MAX} characters)`);
  // Built-in external accounts carry their provider's name.
  const builtIn = fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT ? EXTERNAL_ACCOUNTS[fieldData.subtype as string] : undefined;
  const name = builtIn ? builtIn.name : checkLabel(input.name ?? '');
  return services.db.$transaction(async (tx) => {
    await checkNameFree(tx, actor.realmId, name);
    if (input.displayInProfileSummary) await checkSummary(tx, actor.realmId, fieldType);
    const last = await tx.customProfileField.aggregate({ where: { realmId: actor.realmId }, _max: { order: true } });
    const field = await tx.customProfileField.create({
      data: {
        realmId: actor.realmId,
        name,
        hint,
        fieldType,
        fieldData: fieldData as object,
        order: (last._max.order ?? 0) + 1,
        displayInProfileSummary: input.displayInProfileSummary ?? false,
        required: input.required ?? false,
        editableByUser: input.editableByUser ?? true,
      },
    });
    await announceFields(tx, actor.realmId);
    return field.id;
  });
}

async function accessField(db: Db | Tx, realmId: number, fieldId: number) {
  const field = await db.customProfileField.findFirst({ where: { id: fieldId, realmId } });
  if (!field) throw errors.badRequest(`Field id ${fieldId} not found.`);
  return field;
}

export async function doUpdateField(services: Services, actor: Actor, fieldId: number, input: FieldInput): Promise<void> {
  checkAdmin(actor);
  await services.db.$transaction(async (tx) => {
    const field = await accessField(tx, actor.realmId, fieldId);
    const data: Record<string, unknown> = {};
    if (input.name !== undefined) {
      const builtIn = field.fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT && (field.fieldData as { subtype?: string }).subtype !== 'custom';
      if (builtIn) throw errors.badRequest('Default custom field cannot be updated.');
      data.name = checkLabel(input.name);
      await checkNameFree(tx, actor.realmId, data.name as string, field.id);
    }
    if (input.hint !== undefined) {
      if ([...input.hint].length > FIELD_HINT_MAX) throw errors.badRequest(`hint is too long (limit: ${FIELD_HINT_MAX} characters)`);
      data.hint = input.hint;
    }
    if (input.fieldData !== undefined) {
      const fieldData = checkFieldData(field.fieldType, input.fieldData);
      data.fieldData = fieldData;
      if (field.fieldType === FIELD_TYPE.SELECT) {
        // Values naming a choice that no longer exists would point at nothing: drop them.
        await removeValuesWhere(tx, actor.realmId, field, (v) => !(v in fieldData));
      }
    }
    if (input.displayInProfileSummary !== undefined) {
      if (input.displayInProfileSummary) await checkSummary(tx, actor.realmId, field.fieldType, field.id);
      data.displayInProfileSummary = input.displayInProfileSummary;
    }
    if (input.required !== undefined) data.required = input.required;
    if (input.editableByUser !== undefined) data.editableByUser = input.editableByUser;
    await tx.customProfileField.update({ where: { id: field.id }, data });
    await announceFields(tx, actor.realmId);
  });
}

export async function doDeleteField(services: Services, actor: Actor, fieldId: number): Promise<void> {
  checkAdmin(actor);
  await services.db.$transaction(async (tx) => {
    const field = await accessField(tx, actor.realmId, fieldId);
    await tx.customProfileField.delete({ where: { id: field.id } });
    await announceFields(tx, actor.realmId);
  });
}

export async function doReorderFields(services: Services, actor: Actor, order: number[]): Promise<void> {
  checkAdmin(actor);
  await services.db.$transaction(async (tx) => {
    const fields = await tx.customProfileField.findMany({ where: { realmId: actor.realmId }, select: { id: true } });
    const ids = new Set(fields.map((f) => f.id));
    if (order.length !== ids.size || new Set(order).size !== order.length || !order.every((id) => ids.has(id))) {
      throw errors.badRequest('Invalid order mapping.');
    }
    for (const [i, id] of order.entries()) await tx.customProfileField.update({ where: { id }, data: { order: i + 1 } });
    await announceFields(tx, actor.realmId);
  });
}

/** Tells who can see `userId` about one changed value (null when removed). */
async function announceValue(tx: Tx, realmId: number, user: { id: number; isBot: boolean }, fieldId: number, value: string | null, rendered?: string | null) {
  const custom: Record<string, unknown> = { id: fieldId, value };
  if (rendered !== undefined && rendered !== null) custom.rendered_value = rendered;
  await recordEvent(tx, {
    realmId,
    type: 'realm_user',
    users: await usersWhoCanAccess(tx, realmId, user),
    event: { type: 'realm_user', op: 'update', person: { user_id: user.id, custom_profile_field: custom } },
  });
}

async function removeValuesWhere(tx: Tx, realmId: number, field: Field, drop: (value: string) => boolean) {
  const values = await tx.customProfileFieldValue.findMany({ where: { fieldId: field.id } });
  for (const v of values.filter((x) => drop(x.value))) {
    await tx.customProfileFieldValue.delete({ where: { id: v.id } });
    const user = await tx.user.findUniqueOrThrow({ where: { id: v.userId }, select: { id: true, isBot: true } });
    await announceValue(tx, realmId, user, field.id, null);
  }
}

export type ProfileValue = string | number[] | null;

/**
 * Sets (or, for null, "" and [], removes) values of `target`'s fields in the caller's
 * transaction; checks every entry before writing any. Non-administrators may not change fields
 * that are not editable by users.
 */
export async function doUpdateProfileData(
  tx: Tx,
  actor: Actor,
  target: { id: number; realmId: number; isBot: boolean },
  entries: Array<{ id: number; value: ProfileValue }>,
): Promise<void> {
  const realmUsers = async (ids: number[]) => {
    const rows = await tx.user.findMany({ where: { id: { in: ids }, realmId: target.realmId }, select: { id: true, isActive: true, isBot: true } });
    return new Map(rows.map((r) => [r.id, r]));
  };
  const planned: Array<{ field: Field; value: string | null }> = [];
  for (const entry of entries) {
    const field = await accessField(tx, target.realmId, entry.id);
    if (!isAdmin(actor) && !field.editableByUser) {
      throw errors.badRequest('You are not allowed to change this field. Contact an administrator to update it.');
    }
    const empty = entry.value === null || entry.value === '' || (Array.isArray(entry.value) && entry.value.length === 0);
    planned.push({ field, value: empty ? null : await checkFieldValue(field, entry.value, realmUsers) });
  }
  for (const { field, value } of planned) {
    const existing = await tx.customProfileFieldValue.findUnique({ where: { userId_fieldId: { userId: target.id, fieldId: field.id } } });
    if (value === null) {
      if (!existing) continue;
      await tx.customProfileFieldValue.delete({ where: { id: existing.id } });
      await announceValue(tx, target.realmId, target, field.id, null);
      continue;
    }
    if (existing?.value === value) continue;
    const rendered = RENDERED_TYPES.includes(field.fieldType) ? renderMarkdown(value) : null;
    await tx.customProfileFieldValue.upsert({
      where: { userId_fieldId: { userId: target.id, fieldId: field.id } },
      create: { userId: target.id, fieldId: field.id, value, renderedValue: rendered },
      update: { value, renderedValue: rendered },
    });
    await announceValue(tx, target.realmId, target, field.id, value, rendered);
  }
}

/** DELETE /users/me/profile_data: removes the caller's values of these fields. */
export async function doRemoveOwnProfileData(services: Services, actor: Actor, fieldIds: number[]): Promise<void> {
  checkNotBot(actor);
  await services.db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({ where: { id: actor.userId } });
    await doUpdateProfileData(tx, actor, me, fieldIds.map((id) => ({ id, value: null })));
  });
}

export async function doUpdateOwnProfileData(services: Services, actor: Actor, entries: Array<{ id: number; value: ProfileValue }>) {
  // Profile data is about people: the family refuses bots on both of these endpoints.
  checkNotBot(actor);
  await services.db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({ where: { id: actor.userId } });
    await doUpdateProfileData(tx, actor, me, entries);
  });
}

/** Custom profile field values per user, keyed by field id, as profile_data shows them. */
export async function profileDataFor(db: Db | Tx, realmId: number, userIds: number[]): Promise<Map<number, ProfileData>> {
  if (!userIds.length) return new Map();
  const values = await db.customProfileFieldValue.findMany({
    where: { userId: { in: userIds }, field: { realmId } },
  });
  return profileDataByUser(values, userIds);
}

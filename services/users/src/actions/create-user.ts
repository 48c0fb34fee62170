import { errors, ROLE, ROLES } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { doCreateUserInTx, type NewUser } from '@chat/realm';
import { isValidEmail } from '../lib/emails';
import { checkFullName } from '../lib/names';

/** Checks shared by every way an account is made (POST /users, invitations, JWT, command line). */
export async function checkNewUser(
  db: Db | Tx,
  input: { realmId: number; email: string; fullName: string; role?: number },
): Promise<{ email: string; fullName: string; role: number }> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw errors.badRequest(`Invalid address.`);
  const role = input.role ?? ROLE.MEMBER;
  if (!ROLES.includes(role)) throw errors.badRequest('Invalid role');
  const fullName = checkFullName(input.fullName);
  const taken = await db.user.findFirst({
    where: {
      realmId: input.realmId,
      OR: [{ email: { equals: email, mode: 'insensitive' } }, { deliveryEmail: { equals: email, mode: 'insensitive' } }],
    },
    select: { id: true },
  });
  if (taken) throw errors.badRequest(`Email '${email}' already in use`);
  return { email, fullName, role };
}

/** Creates a checked account in one transaction (events included, via doCreateUserInTx). */
export async function doCreateCheckedUser(db: Db, input: NewUser) {
  return db.$transaction(async (tx) => {
    const checked = await checkNewUser(tx, input);
    return doCreateUserInTx(tx, { ...input, ...checked });
  });
}

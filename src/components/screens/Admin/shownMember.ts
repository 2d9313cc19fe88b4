import {memberName, type ShownMember} from '../../../config';
import type {AdminMember} from '../../../config/api';

/** A member of the console's list as the owner's words take one (src/config/teams.ts). */
export function shownMember(member: AdminMember): ShownMember {
  return {
    state: member.state === 'invited' ? 'invited' : 'joined',
    access: member.access,
    expired: false,
    ...(member.email !== null && {email: member.email}),
    ...(member.username !== null && {username: member.username}),
  };
}

/** A member's name in the console: their GitHub account, or the address invited. */
export const adminMemberName = (member: AdminMember) => memberName(shownMember(member));

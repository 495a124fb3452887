import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { userEditPath, usersPath } from '../../paths';
import { navigate } from '../../router';
import { useDocumentTitle } from '../../ui/document-title';
import { ErrorBanner } from '../../ui/error-banner';
import { errorCode, errorMessage } from '../../ui/errors';
import { Link } from '../../ui/link';
import { MissingScreen } from '../../ui/missing-screen';
import { notify } from '../../ui/notice-store';
import { isSuperAdmin, type Viewer } from '../../viewer';
import { SeatsLine } from './seats-line';
import { UserAvatar } from './user-avatar';
import { UserPasswordForm } from './user-password-form';
import { UserProfileForm } from './user-profile-form';
import { UserTwoFactor } from './user-two-factor';
import { actsOn, CONTACT_ADMIN, USER_NOT_FOUND, USER_QUERY, type EditableUser } from './users-api';
import './users.css';

type Tab = 'profile' | 'password';

type UserEditPageProps = { viewer: Viewer; userID?: string | undefined; organisationID?: string | undefined };

/** Create User, or a user's Edit Profile and Change Password tabs (spec §2 Users). */
export function UserEditPage({ viewer, userID, organisationID }: UserEditPageProps) {
  const [result] = useQuery<{ userGet: EditableUser }>({ query: USER_QUERY, variables: { id: userID ?? '' }, pause: !userID });
  const [tab, setTab] = useState<Tab>('profile');
  const user = result.data?.userGet;
  const notFound = Boolean(userID) && errorCode(result.error) === 'NOT_FOUND';
  const title = userID ? 'Edit User' : 'Create User';
  useDocumentTitle([title]);

  // Anyone but a super admin is sent back to the users list (spec §2); the server says "not found" to keep other organisations' ids secret.
  useEffect(() => {
    if (notFound && !isSuperAdmin(viewer)) {
      notify(USER_NOT_FOUND, 'negative');
      navigate(usersPath(), { replace: true });
    }
  }, [notFound, viewer]);

  if (notFound) return isSuperAdmin(viewer) ? <MissingScreen message={USER_NOT_FOUND} returnTo={usersPath(organisationID)} returnLabel="Return to Users" /> : null;
  const self = user?.id === viewer.id;
  const readOnly = user && !self && !actsOn(viewer.role.name, user.role.name);
  const seatsOrganisation = organisationID ?? (isSuperAdmin(viewer) ? user?.organisation?.id : viewer.organisation?.id);
  const passwordTab = user && !self && !user.isSSO;

  return (
    <main className="admin-page stack">
      <nav aria-label="Breadcrumb" className="muted">
        <Link to={usersPath(organisationID)}>Users</Link>
      </nav>
      <div className="page-header">
        <h1 className="page-header__title" tabIndex={-1}>
          {title}
        </h1>
      </div>
      {seatsOrganisation && <SeatsLine viewer={viewer} organisationID={seatsOrganisation} />}
      {userID && !user ? (
        result.error ? <ErrorBanner message={errorMessage(result.error)} /> : <p className="muted">Loading…</p>
      ) : user?.suspended ? (
        <section className="card stack">
          <p>{`${user.firstName} ${user.lastName} (${user.email}) is suspended.`}</p>
          <p className="alert alert--warning">{CONTACT_ADMIN}</p>
        </section>
      ) : readOnly ? (
        <section className="card stack">
          <p>{`${user.firstName} ${user.lastName} (${user.role.label}) ranks at or above you and cannot be edited here.`}</p>
        </section>
      ) : (
        <>
          {user && (
            <nav className="tabs" aria-label="User sections">
              <button type="button" className="tabs__tab" aria-current={tab === 'profile' ? 'page' : undefined} onClick={() => setTab('profile')}>
                Edit Profile
              </button>
              {passwordTab && (
                <button type="button" className="tabs__tab" aria-current={tab === 'password' ? 'page' : undefined} onClick={() => setTab('password')}>
                  Change Password
                </button>
              )}
            </nav>
          )}
          <section className="card stack user-form">
            {user && tab === 'password' && passwordTab ? (
              <UserPasswordForm viewer={viewer} userID={user.id} />
            ) : (
              <>
                {user && <UserAvatar user={user} />}
                <UserProfileForm
                  key={user?.id ?? 'new'}
                  viewer={viewer}
                  {...(user ? { user } : {})}
                  organisationID={organisationID}
                  onCreated={(id) => navigate(userEditPath(id, organisationID), { replace: true })}
                />
                {user && <UserTwoFactor viewer={viewer} user={user} />}
              </>
            )}
          </section>
        </>
      )}
    </main>
  );
}

type HomePageProps = {
  // null for super admins, who belong to no organisation.
  organisationName: string | null;
};

// The signed-in landing until the dashboard and organisation list are built.
export function HomePage({ organisationName }: HomePageProps) {
  return (
    <main className="container">
      <p className="admin-home__text">
        {organisationName === null ? 'Signed in as Super Admin' : `Signed in to ${organisationName}`}
      </p>
    </main>
  );
}

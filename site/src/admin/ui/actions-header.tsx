/** The column of row actions: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <th scope="col" className="table__actions">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}

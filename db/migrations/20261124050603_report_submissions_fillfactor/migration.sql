-- A Draft's page save rewrites its row without touching an indexed column (decision 028). With room
-- left on each page, PostgreSQL can keep the new version beside the old one (a HOT update) instead
-- of adding an entry to each of the table's ten indexes for every save.
ALTER TABLE "report_submissions" SET (fillfactor = 85);
